// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"context"
	"hash/fnv"
	"io"
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// KeySource is the Dagu key as the REST client reads it (a key file is
// re-read when it changes).
type KeySource interface {
	Key() (string, error)
}

// InstallProcessLogger builds the process logger for cfg writing to w:
// NewLogger with this configuration's secrets (the Dagu key, the inbound
// tokens) and the current request's own Dagu key scrubbed from every
// line. It makes it the process default, so Go's standard logger (what
// net/http's client and server write) goes through it too: every line is
// structured and scrubbed.
func InstallProcessLogger(cfg config.Config, key KeySource, w io.Writer) *slog.Logger {
	l := ProcessLogger(cfg, key, w)
	slog.SetDefault(l)
	return l
}

// ProcessLogger is InstallProcessLogger without making the logger the
// process default: what a test that runs in parallel with others may build
// (the default would send every other test's standard-logger lines into
// its writer). The secrets
// are looked up, the key and token files looked at, once per line (see
// NewLogger).
func ProcessLogger(cfg config.Config, key KeySource, w io.Writer) *slog.Logger {
	secrets, version := logSecrets(cfg, key)
	return NewLogger(w, LogOptions{Level: cfg.LogLevel, Format: cfg.LogFormat,
		Secrets: secrets, SecretsVersion: version, RequestSecrets: requestSecrets})
}

// requestSecrets is the credential of the request a line is logged for.
func requestSecrets(ctx context.Context) []string {
	if key, ok := reqctx.Credential(ctx); ok {
		return []string{key}
	}
	return nil
}

// logSecrets lists cfg's secrets: the Dagu key and the inbound tokens,
// those of the token file as it is now; version changes whenever the list
// does, so the scrubber rebuilds its matcher only then.
func logSecrets(cfg config.Config, key KeySource) (secrets func() []string, version func() uint64) {
	tokens := &config.TokenFileCache{Path: cfg.AuthTokenFile}
	secrets = func() []string {
		var out []string
		for _, entry := range cfg.AuthTokens {
			_, token := config.SplitNamedToken(entry)
			out = append(out, token)
		}
		out = append(out, tokens.Tokens()...)
		if k, err := key.Key(); err == nil {
			out = append(out, k)
		}
		return out
	}
	version = func() uint64 {
		_, v := tokens.Entries()
		h := fnv.New32a()
		if k, err := key.Key(); err == nil {
			_, _ = io.WriteString(h, k)
		}
		return v<<32 | uint64(h.Sum32())
	}
	return secrets, version
}
