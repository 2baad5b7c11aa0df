// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestLogsNeverCarrySecrets: whatever text reaches a log line (an upstream
// error body echoing the key, a token in a message, a key-shaped string),
// the listed secrets and key-shaped text are removed, in both formats.
func TestLogsNeverCarrySecrets(t *testing.T) {
	t.Parallel()
	const (
		key       = "file-key-0123456789abcdef"
		flagToken = "inbound-token-from-a-flag-1234"
		fileToken = "inbound-token-from-the-file-5678"
	)
	secrets := func() []string { return []string{key, flagToken, fileToken} }
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			log := NewLogger(&out, LogOptions{Level: "debug", Format: format, Secrets: secrets})
			log.Error("dagu said "+key, "cause", errors.New(`HTTP 401: {"message":"bad key `+key+`"}`),
				"token", flagToken, "other", fileToken, "shaped", "dagu_AbCdEf0123456789xyz", "header", "Authorization: Bearer abcdefgh12345678")
			for _, secret := range []string{key, flagToken, fileToken, "dagu_AbCdEf0123456789xyz", "abcdefgh12345678"} {
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
	t.Parallel()
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
