// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// Distinct lifetimes, so that each hint names the cache it comes from.
var testLifetimes = readtool.CacheLifetimes{Lists: 1 * time.Second, Specs: 30 * time.Second, FinishedRuns: 5 * time.Minute, References: 45 * time.Second}

// lifetimesTool is the tool over the fake Dagu with the run cache on and
// testLifetimes.
func lifetimesTool(t *testing.T) *readtool.Tool {
	t.Helper()
	fake, baseURL := fakedagutest.Start(t, fakedagu.Options{RecordedOnly: true, APIKey: testKey, Now: func() time.Time { return recordedNow }})
	client, err := restclient.New(restclient.Config{BaseURL: baseURL, Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{Client: client, RunCacheBytes: 8 << 20, ListCacheTTL: time.Second,
		DAGCacheTTL: upstream.DefaultDAGCacheTTL, Now: func() time.Time { return recordedNow }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(adapter.Wait) // the name cache's background refreshes
	_, _ = adapter.Refresh(context.Background())
	fake.Reset()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := readtool.New(readtool.Options{Upstream: adapter, References: refs, Lifetimes: testLifetimes})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestResourceCacheHints: every resources/read of a caller's Dagu data is
// private, kept no longer than the gateway keeps it itself (a run that
// may still change not at all, a finished one for the run cache's
// lifetime, through latest no longer than the latest run is resolved
// again); only the reference topics, the same for everyone, are public.
func TestResourceCacheHints(t *testing.T) {
	t.Parallel()
	cs := connect(t, lifetimesTool(t))
	ctx := context.Background()
	finished := concreteRunID(t, cs, "failing_job")
	l := testLifetimes
	tests := []struct {
		uri   string
		ttl   time.Duration
		scope string
	}{
		{"dagu://reference/read-tool", l.References, "public"},
		{"dagu://reference", l.References, "public"},
		{"dagu://dags", l.Lists, "private"},
		{"dagu://runs", l.Lists, "private"},
		{"dagu://dags/failing_job/spec", l.Specs, "private"},
		{"dagu://runs/failing_job/" + finished, l.FinishedRuns, "private"},
		{"dagu://runs/failing_job/" + finished + "/logs", l.FinishedRuns, "private"},
		{"dagu://runs/failing_job/" + finished + "/steps/explode/logs", l.FinishedRuns, "private"},
		{"dagu://runs/failing_job/latest", l.Lists, "private"},
		{"dagu://runs/approval_job/latest", 0, "private"},
		{"dagu://wiki", 0, "private"},
		{"dagu://wiki/default/runbooks%2Fnightly-export", 0, "private"},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
			if err != nil {
				t.Fatal(err)
			}
			if res.TTLMs != int(tt.ttl.Milliseconds()) || res.CacheScope != tt.scope {
				t.Fatalf("ttlMs %d, cacheScope %q; want %d, %q", res.TTLMs, res.CacheScope, tt.ttl.Milliseconds(), tt.scope)
			}
		})
	}
}

// concreteRunID is the ID of a DAG's latest run.
func concreteRunID(t *testing.T, cs *mcp.ClientSession, name string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "dagu://runs/" + name + "/latest"})
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		DAGRunID string `json:"dagRunId"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &run); err != nil || run.DAGRunID == "" {
		t.Fatalf("latest run of %s: %v %s", name, err, res.Contents[0].Text)
	}
	return run.DAGRunID
}

// TestResourceNotFoundByRevision: a resource that does not exist is -32002
// up to MCP 2025-11-25 and invalid params (-32602) from 2026-07-28
// (SEP-2164); the caller's mistakes are invalid params in every revision,
// and the data is always the contract's error object.
func TestResourceNotFoundByRevision(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "test-gateway", Version: "test"}, nil)
	lifetimesTool(t).Register(server, nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(ts.Close)
	tests := []struct {
		uri, code    string
		legacy, late int64
	}{
		{"dagu://runs/failing_job/no_such_run", "resource_not_found", -32002, jsonrpc.CodeInvalidParams},
		{"dagu://dags/no_such_dag/spec", "resource_not_found", -32002, jsonrpc.CodeInvalidParams},
		{"dagu://reference/no-such-topic", "resource_not_found", -32002, jsonrpc.CodeInvalidParams},
		{"dagu://dags/failing_job", "invalid_resource_uri", jsonrpc.CodeInvalidParams, jsonrpc.CodeInvalidParams},
		{"dagu://queues", "unsupported_resource", jsonrpc.CodeInvalidParams, jsonrpc.CodeInvalidParams},
	}
	for _, version := range []string{"", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, tt := range tests {
			t.Run(version+" "+tt.uri, func(t *testing.T) {
				t.Parallel()
				want := tt.legacy
				if version == "2026-07-28" {
					want = tt.late
				}
				got := readResourceAt(t, ts.URL, version, tt.uri)
				var data struct{ Code, Message, URI string }
				if err := json.Unmarshal(got.Data, &data); err != nil || got.Code != want || data.Code != tt.code || data.URI != tt.uri || data.Message == "" {
					t.Fatalf("JSON-RPC %d with %s (%v); want %d with the contract's %s", got.Code, got.Data, err, want, tt.code)
				}
			})
		}
	}
}

// readResourceAt sends resources/read of uri in revision version ("": no
// header, as a 2025-03-26 client) and returns the JSON-RPC error it gets.
func readResourceAt(t *testing.T, url, version, uri string) *jsonrpc.Error {
	t.Helper()
	params := map[string]any{"uri": uri}
	if version == "2026-07-28" {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    version,
			"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "test", "version": "0"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if version == "2026-07-28" {
		req.Header.Set("Mcp-Method", "resources/read")
		req.Header.Set("Mcp-Name", uri)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var answer struct {
		Error *jsonrpc.Error `json:"error"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Error == nil {
		t.Fatalf("%d %s: no JSON-RPC error (%v)", resp.StatusCode, raw, errors.Join(err))
	}
	return answer.Error
}
