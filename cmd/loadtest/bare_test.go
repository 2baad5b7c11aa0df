// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestBareServerAnswersTheGatewaysBytes(t *testing.T) {
	t.Parallel()
	// A key order a re-encoding through a map would change: the bare
	// server must send the bytes the gateway sent.
	structured := json.RawMessage(`{"target":"reference","data":{"text":"a b c","mimeType":"text/markdown"},"references":["dagu://reference/read-tool"]}`)
	schema := map[string]any{"type": "object", "properties": map[string]any{"target": map[string]any{"type": "string", "enum": []any{"reference"}}}}
	server := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "test"}, nil)
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: schema},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					&mcp.TextContent{Text: "reference read-tool"},
					&mcp.ResourceLink{URI: "dagu://reference/read-tool", Name: "read-tool"},
				},
				StructuredContent: structured,
			}, nil
		})
	gateway := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer gateway.Close()

	cfg := budgetConfig("reference")
	cfg.url = gateway.URL
	answer, err := captureAnswer(context.Background(), cfg, "reference")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(answer.structured, structured) || len(answer.result.Content) != 2 {
		t.Fatalf("captured %s with %d contents", answer.structured, len(answer.result.Content))
	}
	bare := httptest.NewServer(bareHandler(answer))
	defer bare.Close()
	cfg.url = bare.URL
	again, err := captureAnswer(context.Background(), cfg, "reference")
	if err != nil {
		t.Fatal(err)
	}
	wantSchema, _ := json.Marshal(schema)
	if !bytes.Equal(again.inputSchema, wantSchema) {
		t.Errorf("bare server advertises the schema %s, want the gateway's %s", again.inputSchema, wantSchema)
	}
	if !bytes.Equal(again.structured, structured) {
		t.Errorf("bare server sent %s, want the gateway's bytes %s", again.structured, structured)
	}
	if link, ok := again.result.Content[1].(*mcp.ResourceLink); !ok || link.URI != "dagu://reference/read-tool" {
		t.Errorf("bare server's second content %#v, want the gateway's resource link", again.result.Content[1])
	}
}

func TestDecodeAnswerRefusesWhatIsNotAResult(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`event: message` + "\n" + `data: {}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"not found"}]}}`,
	} {
		if _, err := decodeAnswer([]byte(body)); err == nil {
			t.Errorf("decodeAnswer(%q) accepted it", body)
		}
	}
}
