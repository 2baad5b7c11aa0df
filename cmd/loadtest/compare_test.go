// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestParseEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    endpoint
		wantErr bool
	}{
		{in: "cached=http://127.0.0.1:8092/mcp", want: endpoint{label: "cached", url: "http://127.0.0.1:8092/mcp"}},
		{in: "cached=http://127.0.0.1:8092/mcp@4242", want: endpoint{label: "cached", url: "http://127.0.0.1:8092/mcp", pid: 4242}},
		{in: " warm =http://[::1]:1/mcp", want: endpoint{label: "warm", url: "http://[::1]:1/mcp"}},
		{in: "http://127.0.0.1:8092/mcp", wantErr: true},
		{in: "=http://127.0.0.1:8092/mcp", wantErr: true},
		{in: "cached=", wantErr: true},
		{in: "cached=http://127.0.0.1:1/mcp@x", wantErr: true},
		{in: "cached=http://127.0.0.1:1/mcp@-3", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseEndpoint(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("parseEndpoint(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestRoundOrderRotatesSoEachEndpointGoesFirstOnce(t *testing.T) {
	t.Parallel()
	const n = 3
	first := map[int]int{}
	for r := range n {
		order := roundOrder(n, r)
		seen := map[int]bool{}
		for _, i := range order {
			seen[i] = true
		}
		if len(order) != n || len(seen) != n {
			t.Fatalf("round %d order %v is not a permutation of %d endpoints", r, order, n)
		}
		first[order[0]]++
	}
	for i := range n {
		if first[i] != 1 {
			t.Errorf("endpoint %d went first %d times in %d rounds, want once", i, first[i], n)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	tests := []struct {
		name   string
		values []float64
		want   spread
	}{
		{"odd", []float64{1.2, 0.9, 1.0}, spread{1.0, 0.9, 1.2}},
		{"even", []float64{2, 1, 4, 3}, spread{2.5, 1, 4}},
		{"NaN rounds left out", []float64{nan, 0.5, 0.7}, spread{0.6, 0.5, 0.7}},
	}
	for _, tt := range tests {
		if got := spreadOf(tt.values); math.Abs(got.median-tt.want.median) > 1e-9 || got.low != tt.want.low || got.high != tt.want.high {
			t.Errorf("%s: spreadOf(%v) = %+v, want %+v", tt.name, tt.values, got, tt.want)
		}
	}
	if got := spreadOf([]float64{nan}); !math.IsNaN(got.median) || formatSpread(got) != "n/a" {
		t.Errorf("all-NaN spread %+v formats as %q", got, formatSpread(got))
	}
}

// fixedResult is a run where every call of every target took d.
func fixedResult(d time.Duration, calls int64, mix ...string) *result {
	res := &result{elapsed: time.Second, calls: calls, targets: map[string]*targetStats{}}
	for _, name := range mix {
		t := &targetStats{calls: calls}
		for range calls {
			t.latency.add(d)
			res.total.add(d)
		}
		res.targets[name] = t
	}
	return res
}

func TestReportCompareGivesRatiosToTheBaseline(t *testing.T) {
	t.Parallel()
	cfg := config{clients: 1, duration: time.Second, rounds: 2, mix: []string{"dag"}}
	cmp := &comparison{
		endpoints: []endpoint{{label: "gateway", url: "g"}, {label: "built-in", url: "b"}},
		results: [][]*result{
			{fixedResult(time.Millisecond, 40, "dag"), fixedResult(2*time.Millisecond, 20, "dag")},
			{fixedResult(time.Millisecond, 30, "dag"), fixedResult(4*time.Millisecond, 10, "dag")},
		},
	}
	var out strings.Builder
	reportCompare(&out, cfg, cmp)
	for _, want := range []string{
		"gateway   throughput 2.50 [2.00-3.00]",
		"gateway   dag              p50 0.38 [0.25-0.50]",
		"built-in      15.0 calls/s  errors 0  dag p50 3.000ms",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// recordingServer is an MCP server with a stub dagu_read that records the
// arguments it was called with and answers a tool error for a DAG name
// ending in "x" (the missing-DAG read).
type recordingServer struct {
	mu   sync.Mutex
	args []map[string]any
	srv  *httptest.Server
}

func newRecordingServer(t *testing.T, token string, stateless bool) *recordingServer {
	t.Helper()
	rs := &recordingServer{}
	server := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "test"}, nil)
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args map[string]any
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			rs.mu.Lock()
			rs.args = append(rs.args, args)
			rs.mu.Unlock()
			name, _ := args["name"].(string)
			return &mcp.CallToolResult{IsError: strings.HasSuffix(name, "x"), Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: stateless, JSONResponse: true})
	rs.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(rs.srv.Close)
	return rs
}

// seen is every recorded call's arguments.
func (rs *recordingServer) seen() []map[string]any {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]map[string]any(nil), rs.args...)
}

func TestCompareLoadsEveryEndpointWithItsTokenAndTheSameArguments(t *testing.T) {
	t.Parallel()
	gw := newRecordingServer(t, "gateway-token-0123456789", true)
	builtin := newRecordingServer(t, "builtin-key-0123456789", false)
	cfg := budgetConfig("investigate", "dag_missing")
	cfg.maxCalls, cfg.rounds, cfg.label = 8, 2, "gateway"
	cfg.url, cfg.token = gw.srv.URL, "gateway-token-0123456789"
	cfg.baseline = endpoint{label: "built-in", url: builtin.srv.URL, token: "builtin-key-0123456789"}
	var out strings.Builder
	cmp, err := runCompare(context.Background(), cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range cmp.endpoints {
		if n := cmp.errors(i); n != 0 {
			t.Errorf("%s: %d errors, samples %q", e.label, n, cmp.samples(i))
		}
		for r, row := range cmp.results {
			if row[i].calls != 8 {
				t.Errorf("%s round %d: %d calls, want the budget of 8", e.label, r+1, row[i].calls)
			}
		}
	}
	// Each endpoint's server saw every read its runs counted: four per
	// investigation, one per missing-DAG read.
	for i, rs := range []*recordingServer{gw, builtin} {
		want, investigations := 0, 0
		for _, row := range cmp.results {
			investigations += int(row[i].targets["investigate"].calls)
			want += 4*int(row[i].targets["investigate"].calls) + int(row[i].targets["dag_missing"].calls)
		}
		if got := len(rs.seen()); got != want || investigations == 0 {
			t.Fatalf("%s saw %d reads, its runs counted %d (%d investigations)", cmp.endpoints[i].label, got, want, investigations)
		}
	}
	gwArgs, biArgs := gw.seen(), builtin.seen()
	countStepLogQueries := func(all []map[string]any) (withQuery, without int) {
		for _, a := range all {
			if a["target"] != "step_log" {
				continue
			}
			if a["query"] == "stream=stderr" {
				withQuery++
			} else {
				without++
			}
		}
		return withQuery, without
	}
	if q, plain := countStepLogQueries(gwArgs); q == 0 || plain != 0 {
		t.Errorf("gateway step_log reads: %d with stream=stderr, %d without; want all with it", q, plain)
	}
	if q, plain := countStepLogQueries(biArgs); q != 0 || plain == 0 {
		t.Errorf("built-in step_log reads: %d with a query, %d without; want none with one (it takes no query)", q, plain)
	}
	if !strings.Contains(out.String(), "round 2  built-in") {
		t.Errorf("progress lacks the built-in's second round:\n%s", out.String())
	}
}

func TestMissingDAGReadCountsASuccessAsAnError(t *testing.T) {
	t.Parallel()
	srv := newRecordingServer(t, "gateway-token-0123456789", true)
	cfg := budgetConfig("dag_missing")
	cfg.url, cfg.token, cfg.dag = srv.srv.URL, "gateway-token-0123456789", "present_dag_y"
	res, err := runLoad(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// missingName adds an "x", so the stub answers a tool error: success.
	if res.errors != 0 {
		t.Fatalf("missing-DAG reads answered not-found but counted %d errors: %q", res.errors, res.samples)
	}
	cfg.mix = []string{"dag"}
	cfg.dag = "present_dagx"
	if res, err = runLoad(context.Background(), cfg); err != nil || res.errors != res.calls {
		t.Fatalf("a tool error on a plain dag read must count as an error: %d of %d, %v", res.errors, res.calls, err)
	}
}
