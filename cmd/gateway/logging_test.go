// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// TestLogsNeverCarryConfiguredSecrets: the process logger removes the
// configured key, read from its file, and the inbound tokens, from the flag
// and from the token file ("name:token" lines included).
func TestLogsNeverCarryConfiguredSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	tokenFile := filepath.Join(dir, "tokens")
	const (
		fileKey   = "file-key-0123456789abcdef"
		flagToken = "inbound-token-from-a-flag-1234"
		fileToken = "inbound-token-from-the-file-5678"
	)
	if err := os.WriteFile(keyFile, []byte(fileKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokenFile, []byte("ops:"+fileToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cfg := config.Config{DaguAPIKeyFile: keyFile, AuthTokens: []string{flagToken}, AuthTokenFile: tokenFile, LogLevel: "debug", LogFormat: "json"}
	newLogger(cfg, &out).Error("dagu said "+fileKey, "token", flagToken, "other", fileToken)
	for _, secret := range []string{fileKey, flagToken, fileToken} {
		if strings.Contains(out.String(), secret) {
			t.Fatalf("log carries %q: %s", secret, out.String())
		}
	}
}
