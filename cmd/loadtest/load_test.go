// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// budgetConfig is a run bounded by its call budget, not by time.
func budgetConfig(mix ...string) config {
	return config{clients: 4, duration: time.Minute, maxCalls: 40, timeout: 10 * time.Second, mix: mix,
		dag: "failing_job", runID: "r1", step: "explode"}
}

func TestDirectLoadSendsTheKeyAndCountsErrors(t *testing.T) {
	var seen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		switch {
		case r.Header.Get("Authorization") != "Bearer dagu_k":
			w.WriteHeader(http.StatusUnauthorized)
		case strings.HasSuffix(r.URL.Path, "/spec"):
			w.WriteHeader(http.StatusNotFound)
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	cfg := budgetConfig("dags", "dag_spec", "step_log", "run")
	cfg.direct, cfg.daguKey = srv.URL, "dagu_k"
	res, err := runLoad(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.calls != 40 || res.targets["dag_spec"].errors != res.targets["dag_spec"].calls || res.errors != res.targets["dag_spec"].errors {
		t.Errorf("calls %d errors %d per target %+v", res.calls, res.errors, res.targets)
	}
	// step_log reads two streams, so it costs two requests.
	if want := res.calls + res.targets["step_log"].calls; seen.Load() != want {
		t.Errorf("server saw %d requests, want %d", seen.Load(), want)
	}
	if len(res.samples) == 0 || !strings.Contains(res.samples[0], "HTTP 404") {
		t.Errorf("error samples %q", res.samples)
	}
}

func TestMCPLoadCallsTheTool(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "test"}, nil)
	var calls atomic.Int64
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls.Add(1)
			failed := strings.Contains(string(req.Params.Arguments), `"dag_spec"`)
			return &mcp.CallToolResult{IsError: failed, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	token := "a-long-enough-inbound-token"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cfg := budgetConfig("dags", "dag_spec")
	cfg.url, cfg.token = srv.URL, token
	res, err := runLoad(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.calls != 40 || calls.Load() != 40 {
		t.Errorf("made %d calls, the tool saw %d, want 40", res.calls, calls.Load())
	}
	if res.targets["dag_spec"].errors != res.targets["dag_spec"].calls || res.targets["dags"].errors != 0 {
		t.Errorf("errors per target: dags %d, dag_spec %d of %d", res.targets["dags"].errors, res.targets["dag_spec"].errors, res.targets["dag_spec"].calls)
	}
	if res.total.n != uint64(res.targets["dags"].calls) {
		t.Errorf("latencies recorded %d, want one per successful call", res.total.n)
	}
}
