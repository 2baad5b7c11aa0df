// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"log/slog"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// newLogger builds the process logger for cfg writing to w, scrubbing this
// configuration's secrets from every line.
func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	return telemetry.NewLogger(w, telemetry.LogOptions{Level: cfg.LogLevel, Format: cfg.LogFormat, Secrets: logSecrets(cfg)})
}

// logSecrets lists cfg's secrets when a line is written: the Dagu key (the
// key file is re-read when it changes) and the inbound tokens, those of the
// token file as it is now.
func logSecrets(cfg config.Config) func() []string {
	key := keySource(cfg)
	tokens := &config.TokenFileCache{Path: cfg.AuthTokenFile}
	return func() []string {
		var out []string
		for _, entry := range append(append([]string(nil), cfg.AuthTokens...), tokens.Tokens()...) {
			_, token := config.SplitNamedToken(entry)
			out = append(out, token)
		}
		if k, err := key.Key(); err == nil {
			out = append(out, k)
		}
		return out
	}
}
