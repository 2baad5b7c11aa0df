// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogsNeverCarrySecrets: whatever text reaches a log line (an upstream
// error body echoing the key, a token in a message, a key-shaped string),
// the configured key, the inbound tokens and key-shaped text are removed.
func TestLogsNeverCarrySecrets(t *testing.T) {
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
	if err := os.WriteFile(tokenFile, []byte(fileToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			cfg := Config{DaguAPIKeyFile: keyFile, AuthTokens: []string{flagToken}, AuthTokenFile: tokenFile, LogLevel: "debug", LogFormat: format}
			log := cfg.NewLogger(&out)
			log.Error("dagu said "+fileKey, "cause", errors.New(`HTTP 401: {"message":"bad key `+fileKey+`"}`),
				"token", flagToken, "other", fileToken, "shaped", "dagu_AbCdEf0123456789xyz", "header", "Authorization: Bearer abcdefgh12345678")
			for _, secret := range []string{fileKey, flagToken, fileToken, "dagu_AbCdEf0123456789xyz", "abcdefgh12345678"} {
				if strings.Contains(out.String(), secret) {
					t.Fatalf("log carries %q: %s", secret, out.String())
				}
			}
			if strings.Count(out.String(), redacted) < 5 {
				t.Fatalf("secrets not marked as redacted: %s", out.String())
			}
		})
	}
}

func TestScrubKeepsOrdinaryText(t *testing.T) {
	sc := scrubber{secrets: func() []string { return []string{"s3cr3t-value"} }}
	for in, want := range map[string]string{
		"dagu /dag-runs/{name}: HTTP 404":   "dagu /dag-runs/{name}: HTTP 404",
		"value s3cr3t-value here":           "value [REDACTED] here",
		"dagu_short":                        "dagu_short",
		"bearer token missing":              "bearer token missing",
		"key dagu_0123456789abcdef0123 end": "key [REDACTED] end",
	} {
		if got := sc.scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
}
