// SPDX-License-Identifier: Apache-2.0

package healthcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

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
		if got, err := URL(tt.listen); err != nil || got != tt.want {
			t.Errorf("URL(%q) = %q, %v; want %q", tt.listen, got, err, tt.want)
		}
	}
	for _, bad := range []string{"8090", "host:", "host:http", "host:70000"} {
		if got, err := URL(bad); err == nil {
			t.Errorf("URL(%q) = %q, want an error", bad, got)
		}
	}
}

// TestProbe: 200 is healthy; another status, no listener and a
// non-positive timeout are not.
func TestProbe(t *testing.T) {
	t.Parallel()
	serve := func(status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" {
				status = http.StatusNotFound
			}
			w.WriteHeader(status)
		}))
		t.Cleanup(srv.Close)
		return strings.TrimPrefix(srv.URL, "http://")
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closedAddr := strings.TrimPrefix(closed.URL, "http://")
	closed.Close()
	tests := []struct {
		name    string
		listen  string
		timeout time.Duration
		healthy bool
	}{
		{"200", serve(http.StatusOK), time.Second, true},
		{"503", serve(http.StatusServiceUnavailable), time.Second, false},
		{"redirect is not followed", serve(http.StatusFound), time.Second, false},
		{"nothing listening", closedAddr, time.Second, false},
		{"zero timeout", serve(http.StatusOK), 0, false},
	}
	for _, tt := range tests {
		err := Probe(context.Background(), tt.listen, tt.timeout)
		if (err == nil) != tt.healthy {
			t.Errorf("%s: Probe = %v, want healthy %v", tt.name, err, tt.healthy)
		}
	}
}
