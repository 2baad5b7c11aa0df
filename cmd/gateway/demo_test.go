// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/demo"
)

var (
	demoDaguURL      = regexp.MustCompile(`Demo Dagu \(recorded data\):\s*(http://127\.0\.0\.1:\d+)`)
	bannerDoctorLine = regexp.MustCompile(`DAGU_URL=(\S+) DAGU_API_KEY=(\S+) .* doctor\n`)
)

// TestDemoDaguAcceptsTheGivenKey starts `gateway demo --dagu-api-key` and
// checks that its Dagu accepts that key, and only that key, so doctor and
// stdio can be pointed at the printed URL.
func TestDemoDaguAcceptsTheGivenKey(t *testing.T) {
	t.Parallel()
	const key = "dagu_demo_key_chosen_by_the_test"
	demo := startDemo(t, "--log-level", "error", "--dagu-api-key", key)
	stdout := &demo.stdout
	m := demoDaguURL.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no demo Dagu URL in:\n%s", stdout.String())
	}
	if strings.Contains(stdout.String(), key) {
		t.Error("the banner echoes the key")
	}
	tests := []struct {
		name string
		auth string
		want int
	}{
		{"the given key", "Bearer " + key, http.StatusOK},
		{"another key", "Bearer dagu_some_other_key", http.StatusUnauthorized},
		{"no key", "", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, m[1]+"/api/v1/dags", nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.want)
			}
		})
	}
	demo.stop(t)
}

// TestDemoBannerDoctorLineWorks runs `demo` without a key, then doctor
// with the URL and key of the banner's doctor line: the demo Dagu accepts
// it.
func TestDemoBannerDoctorLineWorks(t *testing.T) {
	t.Parallel()
	demo := startDemo(t, "--log-level", "error")
	stdout := &demo.stdout
	m := bannerDoctorLine.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no doctor line in:\n%s", stdout.String())
	}
	code, out, _ := runCommand(t, map[string]string{"DAGU_URL": m[1], "DAGU_API_KEY": m[2]}, "doctor")
	if code != 0 || !strings.Contains(out, "the API key is accepted") {
		t.Errorf("the banner's doctor line: exit %d\n%s", code, out)
	}
	demo.stop(t)
}

// TestDemoDaguKeepsItsPort (issue 36): the demo Dagu listens on the port
// --dagu-port or GATEWAY_DEMO_DAGU_PORT names (by default the same on
// every start, so the banner's doctor and stdio lines stay true; it moved
// to a new port on each start), and a port in use stops the demo with a
// message that says what to do.
func TestDemoDaguKeepsItsPort(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  bool // the port comes from the environment, not the flag
	}{{"flag", false}, {"environment", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			port := strings.TrimPrefix(freeAddr(t), "127.0.0.1:")
			args, env := []string{"--log-level", "error", "--dagu-port", port}, map[string]string(nil)
			if tc.env {
				args, env = args[:2], map[string]string{demo.DaguPortEnv: port}
			}
			d := startDemoEnv(t, env, args...)
			if m := demoDaguURL.FindStringSubmatch(d.stdout.String()); m == nil || m[1] != "http://127.0.0.1:"+port {
				t.Errorf("demo Dagu at %v, want port %s:\n%s", m, port, d.stdout.String())
			}
			d.stop(t)
		})
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, port, _ := net.SplitHostPort(busy.Addr().String())
	code, out, errOut := runCommand(t, nil, "demo", "--listen", "127.0.0.1:0", "--dagu-port", port)
	if code != 2 || out != "" || !strings.Contains(errOut, "demo Dagu: 127.0.0.1:"+port+": address already in use") ||
		!strings.Contains(errOut, "--dagu-port or GATEWAY_DEMO_DAGU_PORT") {
		t.Errorf("a busy demo Dagu port: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}
