// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFrontDoorWithSDKHandler checks the front door in front of the real
// go-sdk handler configured as the gateway uses it: stateless, JSON
// responses, the SDK's own localhost check off because the front door does
// it (and honours --allowed-host).
func TestFrontDoorWithSDKHandler(t *testing.T) {
	t.Parallel()
	ts := sdkFrontDoor(t, Options{Tokens: []string{tokenA}, AllowedHosts: []string{"gw.example"}})

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	tests := []struct {
		name, method, host, auth string
		want                     int
		wantBody                 string
	}{
		{"initialize", http.MethodPost, "", "Bearer " + tokenA, 200, `"protocolVersion"`},
		{"allowed host", http.MethodPost, "gw.example", "Bearer " + tokenA, 200, `"protocolVersion"`},
		{"no token", http.MethodPost, "", "", 401, `"unauthorized"`},
		{"rebinding", http.MethodPost, "evil.example", "Bearer " + tokenA, 403, `forbidden`},
		{"stateless get", http.MethodGet, "", "Bearer " + tokenA, 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(tt.method, ts.URL+"/mcp", strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			expectMCPAnswer(t, ts, req, tt.want, tt.wantBody)
		})
	}
}

// sdkFrontDoor serves the front door, configured by o, in front of a real
// go-sdk handler set up as the gateway sets it up (stateless, JSON
// responses, the SDK's own localhost check off), until the test ends.
func sdkFrontDoor(t *testing.T, o Options) *httptest.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
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

// expectMCPAnswer sends req to ts with the headers of an MCP client (a
// JSON body; JSON or an event stream accepted) and fails the test unless
// the answer has status want and a body containing wantBody.
func expectMCPAnswer(t *testing.T, ts *httptest.Server, req *http.Request, want int, wantBody string) {
	t.Helper()
	resp, body := sendMCP(t, ts, req)
	if resp.StatusCode != want || !strings.Contains(string(body), wantBody) {
		t.Fatalf("got %d %s; want %d with %s", resp.StatusCode, body, want, wantBody)
	}
}

// sendMCP sends req to ts with the headers of an MCP client and returns
// the answer with its body read.
func sendMCP(t *testing.T, ts *httptest.Server, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}
