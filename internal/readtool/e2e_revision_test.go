// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// TestResourceLinkOnlyInRevisionsThatHaveIt: a read's resource_link is
// content of MCP 2025-06-18 and later; a client of 2025-03-26 (a request
// without an MCP-Protocol-Version header, or a session that agreed to it
// over stdio) gets the success text alone, because a client built for that
// revision rejects the whole result for a content type it does not know
// (the TypeScript SDK 1.12 did). structuredContent is the same in every
// revision, and so is the content of a read without a URI.
func TestResourceLinkOnlyInRevisionsThatHaveIt(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "test-gateway", Version: "test"}, nil)
	lifetimesTool(t).Register(server, nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(ts.Close)
	tests := []struct {
		version string
		types   string
	}{
		{"", "text"},
		{"2025-03-26", "text"},
		{"2025-06-18", "text resource_link"},
		{"2025-11-25", "text resource_link"},
	}
	for _, tt := range tests {
		t.Run("http "+tt.version, func(t *testing.T) {
			t.Parallel()
			res := callToolAt(t, ts.URL, tt.version, `{"target":"dag_spec","name":"failing_job"}`)
			if got := contentTypes(res.Content); got != tt.types || res.StructuredContent == nil {
				t.Fatalf("content %q, structuredContent %v; want %q", got, res.StructuredContent != nil, tt.types)
			}
		})
	}
	for _, version := range []string{"2025-03-26", "2025-06-18", "2026-07-28"} {
		t.Run("session "+version, func(t *testing.T) {
			t.Parallel()
			cs := sessionAt(t, server, version)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: readtool.ToolName,
				Arguments: json.RawMessage(`{"target":"dag_spec","name":"failing_job"}`)})
			want := "text resource_link"
			if version == "2025-03-26" {
				want = "text"
			}
			if err != nil || contentTypes(res.Content) != want {
				t.Fatalf("%v: content %q; want %q", err, contentTypes(res.Content), want)
			}
		})
	}
}

// sessionAt connects a go-sdk client that asks for version to server over
// an in-memory transport (a stdio session's shape: it keeps its initialize).
func sessionAt(t *testing.T, server *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// contentTypes lists the types of a result's content items.
func contentTypes(content []mcp.Content) string {
	types := make([]string, 0, len(content))
	for _, c := range content {
		raw, _ := json.Marshal(c)
		var item struct{ Type string }
		_ = json.Unmarshal(raw, &item)
		types = append(types, item.Type)
	}
	return strings.Join(types, " ")
}

// callToolAt calls dagu_read with args over plain HTTP in handshake
// revision version ("": no header, as a 2025-03-26 client) and returns the
// result.
func callToolAt(t *testing.T, url, version, args string) *mcp.CallToolResult {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dagu_read","arguments":` + args + `}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var answer struct {
		Result *mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Result == nil {
		t.Fatalf("%d %s: no result (%v)", resp.StatusCode, raw, err)
	}
	return answer.Result
}
