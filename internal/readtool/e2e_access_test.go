// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// TestAccessLogAndRequestID: one info line per call with the request ID,
// the caller, the method, target, code and upstream calls; the same
// request ID reaches every upstream request.
func TestAccessLogAndRequestID(t *testing.T) {
	t.Parallel()
	fake, base := fakedagutest.Start(t, fakedagu.Options{APIKey: testKey, RecordedOnly: true, Now: func() time.Time { return recordedNow }})
	client, err := restclient.New(restclient.Config{BaseURL: base, Key: restclient.StaticKey(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{Client: client, DAGCacheTTL: upstream.DefaultDAGCacheTTL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(adapter.Wait) // the name cache's background refreshes
	refs, _ := reference.New(reference.Options{})
	var logs bytes.Buffer
	tool, err := readtool.New(readtool.Options{Upstream: adapter, References: refs, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	fake.Reset()
	req := &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(`{"target":"run_logs","name":"failing_job","dagRunId":"latest"}`)},
	}
	// The front door's decision, as the MCP handler hands it on.
	ctx := reqctx.With(context.Background(), reqctx.Info{RequestID: "trace-42", Caller: "ops-team", Trust: reqctx.TrustVerified})
	if res, _ := tool.Handle(ctx, req); res.IsError {
		t.Fatalf("read failed: %+v", res.StructuredContent)
	}
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	sent := len(fake.Requests())
	for k, want := range map[string]any{
		"msg": "mcp.tool_call.succeeded", "request_id": "trace-42", "caller": "ops-team", "method": "tools/call",
		"target": "run_logs", "code": "ok", "upstream_calls": float64(sent),
	} {
		if line[k] != want {
			t.Errorf("log %s = %v, want %v (line %s)", k, line[k], want, strings.TrimSpace(logs.String()))
		}
	}
	for _, r := range fake.Requests() {
		if got := r.Header.Get(reqctx.HeaderRequestID); got != "trace-42" {
			t.Errorf("%s sent to Dagu with request ID %q", r.Path, got)
		}
	}
	if sent < 3 {
		t.Fatalf("only %d upstream requests", sent)
	}
}
