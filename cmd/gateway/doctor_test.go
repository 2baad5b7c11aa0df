// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestDoctorExplainsTheKey (issue 21, row "doctor"): doctor tells a missing
// key from a rejected one and from a key without the rest_api surface, says
// how to make a usable key, and reports what the key's role keeps it from
// reading, probed with that key, never the key itself.
func TestDoctorExplainsTheKey(t *testing.T) {
	t.Parallel()
	keyFile := filepath.Join(t.TempDir(), "dagu-key")
	if err := os.WriteFile(keyFile, []byte("dagu_not_the_right_key"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		role    string
		env     map[string]string
		code    int
		want    []string
		notWant []string
	}{
		{name: "no key", env: map[string]string{}, code: 1,
			want:    []string{"API key:      none configured", "No API key is configured", "DAGU_API_KEY_FILE", "DAGU_API_KEY", `"allowedSurfaces":["rest_api"]`},
			notWant: []string{"rejected"}},
		{name: "wrong key", env: map[string]string{"DAGU_API_KEY": "dagu_not_the_right_key"}, code: 1,
			want:    []string{"API key:      given by --dagu-api-key / DAGU_API_KEY", "Dagu rejected the API key", "HTTP 401"},
			notWant: []string{"No API key is configured", "dagu_not_the_right_key"}},
		{name: "wrong key file", env: map[string]string{"DAGU_API_KEY_FILE": keyFile}, code: 1,
			want:    []string{"read from " + keyFile + " (--dagu-api-key-file / DAGU_API_KEY_FILE)", "Dagu rejected the API key read from " + keyFile},
			notWant: []string{"dagu_not_the_right_key"}},
		{name: "mcp-only key", env: map[string]string{"DAGU_API_KEY": fakedagutest.MCPOnlyKey}, code: 1,
			want:    []string{"lacks the rest_api surface", "POST <dagu-url>/api/v1/api-keys"},
			notWant: []string{"rejected"}},
		{name: "viewer key", env: map[string]string{"DAGU_API_KEY": fakedagutest.APIKey},
			want: []string{"eventLogs          yes (but this key gets 403: its role may not read it)",
				"With this key:", "/event-logs answers 403", "omit attemptId"}},
		{name: "manager key", role: "manager", env: map[string]string{"DAGU_API_KEY": fakedagutest.APIKey},
			want:    []string{"eventLogs          yes (this key may read it)"},
			notWant: []string{"With this key:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, url := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, MCPOnlyKey: fakedagutest.MCPOnlyKey, Role: tt.role})
			tt.env["DAGU_URL"] = url
			code, out, _ := runCommand(t, tt.env, "doctor")
			if code != tt.code {
				t.Fatalf("doctor: exit %d, want %d\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("doctor output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("doctor output has %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestDoctorOnAnUnreachableDagu (issue 30): an unreachable Dagu is said
// once, on stdout, with what to check; no outage warning on stderr and no
// detection line repeating the same failure.
func TestDoctorOnAnUnreachableDagu(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	_ = ln.Close()
	code, out, errOut := runCommand(t, map[string]string{"DAGU_URL": url}, "doctor")
	if code != 1 {
		t.Fatalf("doctor: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"Reachable:    no (network: ", "Nothing answered at " + url, "DAGU_URL"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "network: network") || strings.Contains(out, "Detection:") {
		t.Errorf("doctor repeats the failure:\n%s", out)
	}
	if errOut != "" {
		t.Errorf("doctor wrote to stderr: %q", errOut)
	}
}
