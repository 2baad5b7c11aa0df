// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestTheCallerReachesTheToolInTheContext: the go-sdk's stateless
// Streamable HTTP handler with JSON responses runs a tool handler with a
// context carrying the HTTP request's values, so the tool gets the front
// door's one decision (request ID, caller, trust) and, in passthrough, the
// credential from there and reads no header of its own.
func TestTheCallerReachesTheToolInTheContext(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, auth, want string
		edit             func(*Options)
	}{
		{"inbound token", "Bearer " + tokenA, "id=trace-7 caller=token: trust=verified credential=false", func(o *Options) { o.Tokens = []string{tokenA} }},
		{"passthrough, verified", "Bearer dagu_good", "id=trace-7 caller=key:good trust=verified credential=true", func(o *Options) {
			o.Passthrough, o.Verify = true, goodKeyVerifier(nil)
		}},
		{"passthrough, refused", "Bearer bogus", "id=trace-7 caller=unverified:127.0.0.1 trust=refused credential=true", func(o *Options) {
			o.Passthrough, o.Verify = true, goodKeyVerifier(nil)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := Options{}
			tt.edit(&o)
			ts := whoamiFrontDoor(t, o)
			call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`
			req, err := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(call))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", tt.auth)
			req.Header.Set(reqctx.HeaderRequestID, "trace-7")
			req.Header.Set("X-Gateway-Caller", "forged")
			req.Header.Set("X-Gateway-Trust", "verified")
			expectMCPAnswer(t, ts, req, http.StatusOK, tt.want)
		})
	}
}

// whoamiFrontDoor serves the front door, configured by o, in front of the
// real go-sdk handler with one tool, whoami, that answers what its
// context says of the request.
func whoamiFrontDoor(t *testing.T, o Options) *httptest.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			info, _ := reqctx.From(ctx)
			_, hasCredential := reqctx.Credential(ctx)
			caller := info.Caller
			if strings.HasPrefix(caller, "token:") {
				caller = "token:"
			}
			text := fmt.Sprintf("id=%s caller=%s trust=%s credential=%v", info.RequestID, caller, info.Trust, hasCredential)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	o.MCP = MCPHandler(server, nil)
	o.Listen = "127.0.0.1:0"
	front, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(front)
	t.Cleanup(ts.Close)
	return ts
}
