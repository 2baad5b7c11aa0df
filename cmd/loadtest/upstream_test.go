// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestChainDepth(t *testing.T) {
	t.Parallel()
	at := func(start, end int) span {
		base := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
		return span{start: base.Add(time.Duration(start) * time.Millisecond), end: base.Add(time.Duration(end) * time.Millisecond)}
	}
	tests := []struct {
		name  string
		spans []span
		want  int
	}{
		{name: "no request", want: 0},
		{name: "one", spans: []span{at(0, 50)}, want: 1},
		{name: "two together", spans: []span{at(0, 50), at(1, 52)}, want: 1},
		{name: "two in a chain", spans: []span{at(0, 50), at(51, 101)}, want: 2},
		{name: "answered in another order than sent", spans: []span{at(51, 101), at(0, 50)}, want: 2},
		{name: "details with the log, then the probes", spans: []span{
			at(0, 50), at(1, 51), at(52, 102), at(52, 103), at(53, 104), at(53, 104),
		}, want: 2},
		{name: "a long call beside a chain", spans: []span{at(0, 160), at(1, 51), at(52, 102), at(103, 153)}, want: 3},
		{name: "starting as the last answer is written", spans: []span{at(0, 50), at(50, 100)}, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := chainDepth(tt.spans); got != tt.want {
				t.Errorf("chainDepth = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestParseUpstreamFlags(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		if k == "DAGU_URL" {
			return "http://127.0.0.1:18080"
		}
		return ""
	}
	delay := []string{"-upstream-delay", "50ms", "-clients", "1"}
	tests := []flagCase{
		{name: "Dagu from the environment", args: delay, check: func(t *testing.T, c config) {
			if c.upstream != "http://127.0.0.1:18080" || c.upstreamDelay != 50*time.Millisecond || c.upstreamListen != "127.0.0.1:18190" {
				t.Errorf("config %+v", c)
			}
		}},
		{name: "several clients", args: []string{"-upstream-delay", "50ms"}, wantErr: "-clients 1"},
		{name: "delay too long", args: append(delay, "-upstream-delay", "11s"), wantErr: "-upstream-delay must be"},
		{name: "remote Dagu", args: append(delay, "-upstream", "http://10.2.2.2:8080"), wantErr: "not a loopback address"},
		{name: "remote Dagu allowed", args: append(delay, "-upstream", "http://10.2.2.2:8080", "-allow-remote")},
		{name: "proxy off loopback", args: append(delay, "-upstream-listen", "0.0.0.0:18190"), wantErr: "loopback IP"},
		{name: "proxy on a name", args: append(delay, "-upstream-listen", "localhost:18190"), wantErr: "loopback IP"},
		{name: "with a baseline", args: append(delay, "-baseline", "http://127.0.0.1:18080/mcp"), wantErr: "exclude each other"},
		{name: "direct", args: append(delay, "-direct", "http://127.0.0.1:18080"), wantErr: "-direct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, env)
		})
	}
	if _, err := parseFlags(delay, io.Discard, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "-upstream") {
		t.Errorf("no Dagu anywhere: error %v", err)
	}
}

// TestRoundTripsAreCounted loads a stub tool that reads its stub Dagu
// through the proxy: "dags" sends two requests together, "run" one after
// the other. The stub Dagu answers the pair only once both arrived, so
// they overlap whatever the machine's load.
func TestRoundTripsAreCounted(t *testing.T) {
	t.Parallel()
	var pair sync.WaitGroup
	pair.Add(2)
	dagu := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/together" {
			pair.Done()
			pair.Wait()
		}
		_, _ = w.Write([]byte("{}"))
	}))
	defer dagu.Close()
	cfg := budgetConfig("dags", "run")
	cfg.clients, cfg.maxCalls, cfg.upstreamDelay = 1, 2, time.Millisecond
	proxy, err := startDelayProxy(dagu.URL, "127.0.0.1:0", cfg.upstreamDelay)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.close()
	cfg.proxy = proxy
	cfg.url = stubGateway(t, proxy.url)
	res, err := runLoad(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]tripSample{"dags": {depth: 1, calls: 2}, "run": {depth: 2, calls: 2}} {
		got := res.trips[name]
		if got == nil || len(got.samples) != 1 || got.samples[0].depth != want.depth || got.samples[0].calls != want.calls {
			t.Errorf("%s: trips %+v, want depth %d and %d calls", name, got, want.depth, want.calls)
		}
	}
}

// stubGateway serves a dagu_read that reads the stub Dagu at dagu: two
// requests together for target dags, two in a row for any other.
func stubGateway(t *testing.T, dagu string) string {
	t.Helper()
	get := func(ctx context.Context, path string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, dagu+path, nil)
		if err != nil {
			return err
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return res.Body.Close()
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "test"}, nil)
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var errs [2]error
			if strings.Contains(string(req.Params.Arguments), `"dags"`) {
				var wg sync.WaitGroup
				for i := range errs {
					wg.Go(func() { errs[i] = get(ctx, "/together") })
				}
				wg.Wait()
			} else {
				errs[0], errs[1] = get(ctx, "/first"), get(ctx, "/second")
			}
			failed := errs[0] != nil || errs[1] != nil
			return &mcp.CallToolResult{IsError: failed, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestWaitReadyWaitsForReadyz: the gateway behind the proxy may start
// after it; the load begins once /readyz answers 200.
func TestWaitReadyWaitsForReadyz(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	asked := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/readyz" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if asked++; asked < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	if err := waitReady(context.Background(), srv.URL+"/mcp", srv.Client()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if asked != 3 {
		t.Errorf("asked /readyz %d times, want 3", asked)
	}
}
