// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestStartWarnsWithoutAKey (issue 30): stdio warns at start-up when it
// reads Dagu with its own key and none is configured; not with a key or a
// key file (internal/doctor's startwarn_test.go covers passthrough).
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
