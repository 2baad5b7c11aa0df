// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestStartWarnsWithoutAKey (issue 30): serve and stdio warn at start-up
// when they read Dagu with their own key and none is configured; not with
// a key, a key file, or in passthrough (callers bring their keys).
func TestStartWarnsWithoutAKey(t *testing.T) {
	t.Parallel()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, RecordedOnly: true})
	for _, tc := range []struct {
		name string
		env  map[string]string
		warn bool
	}{
		{name: "no key", env: map[string]string{}, warn: true},
		{name: "key", env: map[string]string{"DAGU_API_KEY": fakedagutest.APIKey}},
		{name: "key file", env: map[string]string{"DAGU_API_KEY_FILE": writeKeyFile(t)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.env["DAGU_URL"] = daguURL
			code, _, errOut := runCommand(t, tc.env, "stdio") // empty stdin: stdio stops at once
			if code != 0 {
				t.Fatalf("stdio exited %d: %s", code, errOut)
			}
			if warned := strings.Contains(errOut, "no Dagu API key is configured"); warned != tc.warn {
				t.Errorf("warned %v, want %v: %s", warned, tc.warn, errOut)
			}
		})
	}
	var logs strings.Builder
	for _, tc := range []struct {
		name string
		args []string
		warn bool
	}{
		{"serve without a key", nil, true},
		{"serve in passthrough", []string{"--upstream-auth", "passthrough"}, false},
	} {
		logs.Reset()
		cfg, err := resolveFrom(t, append([]string{"--dagu-url", daguURL}, tc.args...), nil)
		if err != nil {
			t.Fatal(err)
		}
		warnWithoutKey(testLogger(&logs), cfg)
		if warned := strings.Contains(logs.String(), "DAGU_API_KEY_FILE"); warned != tc.warn {
			t.Errorf("%s: warned %v, want %v: %s", tc.name, warned, tc.warn, logs.String())
		}
	}
}

// writeKeyFile writes the fake Dagu's key to a file only its owner reads.
func writeKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dagu-key")
	if err := os.WriteFile(path, []byte(fakedagutest.APIKey), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func testLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
