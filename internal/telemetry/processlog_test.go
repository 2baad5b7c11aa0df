// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestLogsNeverCarryConfiguredSecrets: the process logger removes the
// configured key, read from its file, and the inbound tokens, from the flag
// and from the token file ("name:token" lines included).
func TestLogsNeverCarryConfiguredSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "key")
	tokenFile := filepath.Join(dir, "tokens")
	const (
		fileKey   = "file-key-0123456789abcdef"
		flagToken = "inbound-token-from-a-flag-1234"
		fileToken = "inbound-token-from-the-file-5678"
	)
	if err := os.WriteFile(keyPath, []byte(fileKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokenFile, []byte("ops:"+fileToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cfg := config.Config{DaguAPIKeyFile: keyPath, AuthTokens: []string{flagToken}, AuthTokenFile: tokenFile, LogLevel: "debug", LogFormat: "json"}
	ProcessLogger(cfg, keyFile(keyPath), &out).Error("dagu said "+fileKey, "token", flagToken, "other", fileToken)
	for _, secret := range []string{fileKey, flagToken, fileToken} {
		if strings.Contains(out.String(), secret) {
			t.Fatalf("log carries %q: %s", secret, out.String())
		}
	}
}

// TestStandardLoggerAndCallerKeyGoThroughTheScrubber: what Go's standard
// logger writes (net/http's client and server) becomes a structured line
// of the process logger (issue 20: plain text inside the JSON log), and a
// passthrough caller's own key, carried by the request's context, is
// removed from the lines logged for it. Not parallel: it sets the process
// default logger.
func TestStandardLoggerAndCallerKeyGoThroughTheScrubber(t *testing.T) {
	prev := slog.Default()
	t.Cleanup(func() { slog.SetDefault(prev) })
	var out bytes.Buffer
	logger := InstallProcessLogger(config.Config{LogLevel: "info", LogFormat: "json"}, keyFile(""), &out)
	const callerKey = "callers-own-key-7f3a9b2c"
	log.Printf("http: superfluous response.WriteHeader call, Authorization: Bearer %s", callerKey)
	logger.WarnContext(reqctx.WithCredential(context.Background(), callerKey), "dagu answered 401: unknown key "+callerKey)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two lines, got %q", out.String())
	}
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if strings.Contains(line, callerKey) {
			t.Fatalf("the caller's key was logged: %s", line)
		}
	}
}

// keyFile is a KeySource reading the key from a file, as the REST
// client's does; no file means no key.
type keyFile string

func (f keyFile) Key() (string, error) {
	if f == "" {
		return "", nil
	}
	data, err := os.ReadFile(string(f))
	return strings.TrimSpace(string(data)), err
}
