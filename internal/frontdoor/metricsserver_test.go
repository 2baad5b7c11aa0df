// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
)

// TestStartMetricsServesOnlyMetrics: the separate metrics listener answers
// GET /metrics and nothing else, and an address it cannot bind fails the
// start instead of being logged.
func TestStartMetricsServesOnlyMetrics(t *testing.T) {
	t.Parallel()
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "metric 1\n") })
	stop, addr, err := StartMetrics(context.Background(), ServerOptions{Addr: "127.0.0.1:0", Handler: metrics})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/metrics", http.StatusOK},
		{http.MethodGet, "/mcp", http.StatusNotFound},
		{http.MethodPost, "/metrics", http.StatusMethodNotAllowed},
	} {
		req, _ := http.NewRequest(tc.method, "http://"+addr+tc.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, res.StatusCode, tc.want)
		}
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	if _, _, err := StartMetrics(context.Background(), ServerOptions{Addr: taken.Addr().String(), Handler: metrics}); err == nil {
		t.Fatal("StartMetrics on a taken address succeeded")
	}
}
