// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHealthcheck probes healthy, failing, redirecting, refusing and stalled
// servers. It is not parallel: the refused case needs a port freed a moment
// before to stay free, which another test's listener could take.
func TestHealthcheck(t *testing.T) {
	serve := func(status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || r.URL.Path != "/healthz" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(status)
		}))
		t.Cleanup(srv.Close)
		return srv.Listener.Addr().String()
	}
	healthy := serve(http.StatusOK)
	unavailable := serve(http.StatusServiceUnavailable)
	redirect := serve(http.StatusFound)

	// A port that was free a moment ago: nothing listens, connection refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := ln.Addr().String()
	ln.Close()

	// A server that accepts but never answers within the probe timeout.
	stall := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-stall }))
	t.Cleanup(func() { close(stall); slow.Close() })

	_, healthyPort, _ := net.SplitHostPort(healthy)

	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"200 via --listen", nil, []string{"--listen", healthy}, 0, ""},
		{"200 via GATEWAY_LISTEN", map[string]string{"GATEWAY_LISTEN": healthy}, nil, 0, ""},
		{"wildcard host probed on loopback", map[string]string{"GATEWAY_LISTEN": "0.0.0.0:" + healthyPort}, nil, 0, ""},
		{"empty host probed on loopback", nil, []string{"--listen", ":" + healthyPort}, 0, ""},
		{"flag beats environment", map[string]string{"GATEWAY_LISTEN": refused}, []string{"--listen", healthy}, 0, ""},
		{"503", nil, []string{"--listen", unavailable}, 1, "503"},
		{"redirect is not healthy", nil, []string{"--listen", redirect}, 1, "302"},
		{"connection refused", nil, []string{"--listen", refused}, 1, "refused"},
		{"timeout", nil, []string{"--listen", slow.Listener.Addr().String(), "--timeout", "100ms"}, 1, "deadline"},
		{"bad listen address", map[string]string{"GATEWAY_LISTEN": "no-port"}, nil, 1, "--listen"},
		{"port zero", nil, []string{"--listen", "127.0.0.1:0"}, 1, "port"},
		{"zero timeout", nil, []string{"--listen", healthy, "--timeout", "0"}, 1, "timeout must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := runCommand(t, tt.env, append([]string{"healthcheck"}, tt.args...)...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tt.wantCode, out, errOut)
			}
			if tt.wantCode == 0 && strings.TrimSpace(out) != "ok" {
				t.Fatalf("stdout %q, want ok", out)
			}
			if tt.wantErr != "" && !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("stderr %q lacks %q", errOut, tt.wantErr)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("probe took %v", d)
			}
		})
	}
}

func TestHealthcheckHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runCommand(t, nil, "healthcheck", "--help")
	for _, want := range []string{"/healthz", "--listen", "GATEWAY_LISTEN", "--timeout", "HEALTHCHECK"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("healthcheck --help lacks %q (exit %d):\n%s", want, code, out)
		}
	}
}

// TestHealthURL: a wildcard or empty host is probed on the loopback
// address of its family; an address without a usable port is refused.
func TestHealthURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ listen, want string }{
		{"127.0.0.1:8090", "http://127.0.0.1:8090/healthz"},
		{"0.0.0.0:8090", "http://127.0.0.1:8090/healthz"},
		{":8090", "http://127.0.0.1:8090/healthz"},
		{"[::]:8090", "http://[::1]:8090/healthz"},
		{"[::1]:9000", "http://[::1]:9000/healthz"},
		{"localhost:8090", "http://localhost:8090/healthz"},
		{"10.1.2.3:8090", "http://10.1.2.3:8090/healthz"},
	}
	for _, tt := range tests {
		if got, err := healthURL(tt.listen); err != nil || got != tt.want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", tt.listen, got, err, tt.want)
		}
	}
	for _, bad := range []string{"8090", "host:", "host:http", "host:70000"} {
		if got, err := healthURL(bad); err == nil {
			t.Errorf("healthURL(%q) = %q, want an error", bad, got)
		}
	}
}
