// SPDX-License-Identifier: Apache-2.0

package frontdoor_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
)

// The front door in front of an MCP handler on a loopback listener with
// one inbound token: a request without the token gets a 401 whose
// challenge points at the protected-resource metadata; with it, the MCP
// handler answers and the response carries a request ID.
func ExampleNew() {
	const token = "example-token-0123456789"
	mcpHandler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	h, err := frontdoor.New(frontdoor.Options{MCP: mcpHandler, Tokens: []string{token}, Listen: "127.0.0.1:8090"})
	if err != nil {
		panic(err)
	}
	post := func(authorization string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8090/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if authorization != "" {
			r.Header.Set("Authorization", authorization)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	refused := post("")
	fmt.Println(refused.Code, refused.Header().Get("WWW-Authenticate"))
	accepted := post("Bearer " + token)
	fmt.Println(accepted.Code, accepted.Body.String(), accepted.Header().Get("X-Request-Id") != "")
	// Output:
	// 401 Bearer resource_metadata="http://127.0.0.1:8090/.well-known/oauth-protected-resource"
	// 200 {"jsonrpc":"2.0","id":1,"result":{}} true
}

// A front door without tokens refuses to listen beyond loopback.
func ExampleNew_publicWithoutTokens() {
	_, err := frontdoor.New(frontdoor.Options{MCP: http.NotFoundHandler(), Listen: "0.0.0.0:8090"})
	fmt.Println(err)
	// Output:
	// front door: refusing to serve 0.0.0.0:8090 without inbound tokens
}

// MCPHandler serves an MCP server statelessly with JSON responses; behind
// the front door it answers initialize.
func ExampleMCPHandler() {
	server := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	h, err := frontdoor.New(frontdoor.Options{MCP: frontdoor.MCPHandler(server, nil), Listen: "127.0.0.1:8090"})
	if err != nil {
		panic(err)
	}
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8090/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Content-Type"), strings.Contains(w.Body.String(), `"name":"example"`))
	// Output:
	// 200 application/json true
}

// MetricsOnly is the handler of a separate metrics listener: /metrics and
// nothing else.
func ExampleMetricsOnly() {
	h := frontdoor.MetricsOnly(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "up 1\n")
	}))
	for _, path := range []string{"/metrics", "/mcp"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, w.Code)
	}
	// Output:
	// /metrics 200
	// /mcp 404
}

// A server serves until its context ends, then shuts down gracefully and
// returns nil.
func ExampleServer_Serve() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := frontdoor.NewServer(frontdoor.ServerOptions{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "hello")
	})})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()

	res, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	fmt.Println(res.StatusCode, string(body))
	cancel()
	fmt.Println(<-done)
	// Output:
	// 200 hello
	// <nil>
}
