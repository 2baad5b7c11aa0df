// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRunIDOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		structured any
		want       string
		wantErr    bool
	}{
		{"concrete", map[string]any{"target": "run", "data": map[string]any{"dagRunId": "019a-run", "status": 2}}, "019a-run", false},
		{"latest is not concrete", map[string]any{"data": map[string]any{"dagRunId": "latest"}}, "", true},
		{"no data", map[string]any{"target": "run"}, "", true},
		{"not an object", []any{1, 2}, "", true},
	}
	for _, tt := range tests {
		got, err := runIDOf(tt.structured)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s: runIDOf = %q, %v; want %q, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestResolveRunIDReadsTheLatestRunThroughTheGateway(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "test"}, nil)
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args map[string]string
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			if args["target"] != "run" || args["dagRunId"] != "latest" || args["name"] != "failing_job" {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "unexpected read"}}}, nil
			}
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "ok"}},
				StructuredContent: map[string]any{"target": "run", "data": map[string]any{"name": "failing_job", "dagRunId": "run-42"}},
			}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer srv.Close()
	cfg := budgetConfig("run")
	cfg.url, cfg.resolveRun, cfg.maxCalls = srv.URL, true, 2
	var out strings.Builder
	if err := loadAndReport(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "run failing_job/run-42 (the latest run of failing_job)") || !strings.Contains(out.String(), "errors 2") {
		// The stub answers only the latest read, so the two loaded reads of
		// the concrete run are tool errors: the ID was replaced.
		t.Errorf("report:\n%s", out.String())
	}
}
