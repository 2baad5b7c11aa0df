// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestOutputChosenByURL: one running gateway serves each client the
// content its URL asks for, whatever the server's flags say, and /mcp the
// server's own; structuredContent is the same on every URL.
func TestOutputChosenByURL(t *testing.T) {
	t.Parallel()
	contractServer := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	jsonServer := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken,
		"--text-content", "json", "--resource-links", "omit")
	const args = `{"target":"run","name":"failing_job","dagRunId":"latest"}`
	want := readAnswer(t, connectHTTP(t, contractServer+"/mcp", goodToken), args)
	if want.shape != "text,resource_link" {
		t.Fatalf("the contract's /mcp answered %s", want.shape)
	}
	for _, tc := range []struct {
		name, endpoint, shape string
	}{
		{"contract server, json URL", contractServer + "/mcp?text-content=json&resource-links=omit", "text,text"},
		{"contract server, omit URL", contractServer + "/mcp?resource-links=omit", "text"},
		{"json server, plain URL", jsonServer + "/mcp", "text,text"},
		{"json server, contract URL", jsonServer + "/mcp?text-content=contract&resource-links=contract", "text,resource_link"},
	} {
		got := readAnswer(t, connectHTTP(t, tc.endpoint, goodToken), args)
		if got.shape != tc.shape {
			t.Errorf("%s: content %s, want %s", tc.name, got.shape, tc.shape)
		}
		if got.structured != want.structured {
			t.Errorf("%s: structuredContent differs from the contract's", tc.name)
		}
		if tc.shape == want.shape && got.content != want.content {
			t.Errorf("%s: content differs from the contract's:\n%s\n%s", tc.name, got.content, want.content)
		}
	}
}

// answer is one tool result as a test compares it.
type answer struct {
	shape, content, structured string
}

// readAnswer calls dagu_read and reports its content's item types in
// order, its content and its structuredContent as JSON.
func readAnswer(t *testing.T, cs *mcp.ClientSession, args string) answer {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", args, err, res)
	}
	var a answer
	for i, c := range res.Content {
		if i > 0 {
			a.shape += ","
		}
		switch c.(type) {
		case *mcp.TextContent:
			a.shape += "text"
		case *mcp.ResourceLink:
			a.shape += "resource_link"
		default:
			a.shape += "other"
		}
	}
	content, _ := json.Marshal(res.Content)
	structured, _ := json.Marshal(res.StructuredContent)
	a.content, a.structured = string(content), string(structured)
	return a
}
