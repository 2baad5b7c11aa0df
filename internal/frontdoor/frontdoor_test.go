// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

const (
	tokenA = "token-a-0123456789abcdef"
	tokenB = "token-b-0123456789abcdef"
)

// ping is the JSON-RPC request the tests send when only the front door's
// decision matters (the front door answers what is not JSON-RPC itself).
const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// fakeMCP stands in for the MCP handler: it reads the body and counts calls.
type fakeMCP struct {
	calls   atomic.Int32
	readErr atomic.Pointer[error]
}

func (f *fakeMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if _, err := io.ReadAll(r.Body); err != nil {
		f.readErr.Store(&err)
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0"}`)
}

// frontDoor builds a handler with sensible test options changed by edit.
func frontDoor(t *testing.T, edit func(*Options)) (http.Handler, *fakeMCP) {
	t.Helper()
	mcp := &fakeMCP{}
	o := Options{
		MCP:     mcp,
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "metrics") }),
		Listen:  "127.0.0.1:8090",
	}
	if edit != nil {
		edit(&o)
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return h, mcp
}

// frontDoorRequest describes one call to the front door.
type frontDoorRequest struct {
	method, path, host, origin, auth, body string
}

func (q frontDoorRequest) do(h http.Handler) *httptest.ResponseRecorder {
	return q.doWith(h, nil)
}

// doWith sends the request after edit changes it (nil: unchanged).
func (q frontDoorRequest) doWith(h http.Handler, edit func(*http.Request)) *httptest.ResponseRecorder {
	method, body := q.method, q.body
	if method == "" {
		method = http.MethodPost
	}
	if method == http.MethodPost && body == "" {
		body = ping // an MCP request: only what the front door decides matters
	}
	r := httptest.NewRequest(method, q.path, strings.NewReader(body))
	r.Host = "127.0.0.1:8090"
	if q.host != "" {
		r.Host = q.host
	}
	if q.origin != "" {
		r.Header.Set("Origin", q.origin)
	}
	if q.auth != "" {
		r.Header.Set("Authorization", q.auth)
	}
	if edit != nil {
		edit(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// jsonBody decodes a JSON object response.
func jsonBody(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("body %q is not JSON: %v", w.Body.String(), err)
	}
	return m
}

func TestFrontDoorAuth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		tokens     []string
		req        frontDoorRequest
		wantStatus int
	}{
		{"no tokens configured", nil, frontDoorRequest{path: "/mcp"}, 200},
		{"token ok", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: "Bearer " + tokenA}, 200},
		{"scheme is case-insensitive", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: "bearer " + tokenA}, 200},
		{"second of several tokens", []string{tokenA, tokenB}, frontDoorRequest{path: "/mcp", auth: "Bearer " + tokenB}, 200},
		{"missing token", []string{tokenA}, frontDoorRequest{path: "/mcp"}, 401},
		{"wrong token", []string{tokenA, tokenB}, frontDoorRequest{path: "/mcp", auth: "Bearer " + tokenA + "x"}, 401},
		{"prefix of a token", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: "Bearer " + tokenA[:10]}, 401},
		{"empty bearer", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: "Bearer "}, 401},
		{"basic scheme", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: "Basic " + tokenA}, 401},
		{"token without scheme", []string{tokenA}, frontDoorRequest{path: "/mcp", auth: tokenA}, 401},
		{"metrics needs token", []string{tokenA}, frontDoorRequest{method: "GET", path: "/metrics"}, 401},
		{"metrics with token", []string{tokenA}, frontDoorRequest{method: "GET", path: "/metrics", auth: "Bearer " + tokenA}, 200},
		{"healthz without token", []string{tokenA}, frontDoorRequest{method: "GET", path: "/healthz"}, 200},
		{"readyz without token", []string{tokenA}, frontDoorRequest{method: "GET", path: "/readyz"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, mcp := frontDoor(t, func(o *Options) { o.Tokens = tt.tokens })
			w := tt.req.do(h)
			if w.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d (body %q)", w.Code, tt.wantStatus, w.Body.String())
			}
			if tt.wantStatus != http.StatusUnauthorized {
				return
			}
			if got := w.Header().Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer ") {
				t.Errorf("WWW-Authenticate = %q", got)
			}
			if got := jsonBody(t, w)["error"]; got != "unauthorized" {
				t.Errorf("error = %v", got)
			}
			if mcp.calls.Load() != 0 {
				t.Error("MCP handler ran for an unauthenticated request")
			}
		})
	}
}

func TestFrontDoorHostAndOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		listen  string
		allowed []string
		req     frontDoorRequest
		want    int
	}{
		{"listen address", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "127.0.0.1:8090"}, 200},
		{"localhost", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "LOCALHOST:8090"}, 200},
		{"ipv6 loopback", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "[::1]:8090"}, 200},
		{"listen host name", "localhost:8090", nil, frontDoorRequest{path: "/mcp", host: "localhost:8090"}, 200},
		{"rebinding host", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "evil.example:8090"}, 403},
		{"other port", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "localhost:9999"}, 403},
		{"no port means 80", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", host: "localhost"}, 403},
		{"no port on port 80", "127.0.0.1:80", nil, frontDoorRequest{path: "/mcp", host: "localhost"}, 200},
		{"allowed host any port", "127.0.0.1:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "GW.example:443"}, 200},
		{"allowed host:port", "127.0.0.1:8090", []string{"gw.example:8443"}, frontDoorRequest{path: "/mcp", host: "gw.example:8443"}, 200},
		{"allowed host wrong port", "127.0.0.1:8090", []string{"gw.example:8443"}, frontDoorRequest{path: "/mcp", host: "gw.example:8444"}, 403},
		{"local origin", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", origin: "http://localhost:8090"}, 200},
		{"foreign origin", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", origin: "http://evil.example"}, 403},
		{"opaque origin", "127.0.0.1:8090", nil, frontDoorRequest{path: "/mcp", origin: "null"}, 403},
		{"allowed https origin", "127.0.0.1:8090", []string{"gw.example:443"}, frontDoorRequest{path: "/mcp", origin: "https://gw.example"}, 200},
		{"metrics guarded", "127.0.0.1:8090", nil, frontDoorRequest{method: "GET", path: "/metrics", host: "evil.example:8090"}, 403},
		{"healthz exempt", "127.0.0.1:8090", nil, frontDoorRequest{method: "GET", path: "/healthz", host: "evil.example:8090"}, 200},
		{"public bind, no list", "0.0.0.0:8090", nil, frontDoorRequest{path: "/mcp", host: "10.1.2.3:8090", auth: "Bearer " + tokenA}, 200},
		{"public bind, list, other host", "0.0.0.0:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "10.1.2.3:8090", auth: "Bearer " + tokenA}, 403},
		{"public bind, list, allowed", "0.0.0.0:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "gw.example", auth: "Bearer " + tokenA}, 200},
		{"public bind, list, localhost", "0.0.0.0:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "localhost:8090", auth: "Bearer " + tokenA}, 200},
		{"bound ip, list, own address", "10.0.0.5:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "10.0.0.5:8090", auth: "Bearer " + tokenA}, 200},
		{"public bind, list, bad origin", "0.0.0.0:8090", []string{"gw.example"}, frontDoorRequest{path: "/mcp", host: "gw.example", origin: "https://evil.example", auth: "Bearer " + tokenA}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, mcp := frontDoor(t, func(o *Options) {
				o.Listen, o.AllowedHosts = tt.listen, tt.allowed
				if !config.IsLoopbackListen(tt.listen) {
					o.Tokens = []string{tokenA}
				}
			})
			w := tt.req.do(h)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d (body %q)", w.Code, tt.want, w.Body.String())
			}
			if w.Code == http.StatusForbidden && mcp.calls.Load() != 0 {
				t.Error("MCP handler ran for a forbidden request")
			}
		})
	}
}

func TestFrontDoorBodyLimit(t *testing.T) {
	t.Parallel()
	h, mcp := frontDoor(t, func(o *Options) { o.MaxBodyBytes = int64(len(ping)) })

	w := frontDoorRequest{path: "/mcp", body: ping + " "}.do(h)
	if w.Code != http.StatusRequestEntityTooLarge || mcp.calls.Load() != 0 {
		t.Fatalf("declared oversize body: status %d, MCP calls %d", w.Code, mcp.calls.Load())
	}

	// Without Content-Length the limit is enforced while reading.
	r := httptest.NewRequest(http.MethodPost, "/mcp", io.MultiReader(strings.NewReader(ping+" ")))
	r.Host, r.ContentLength = "127.0.0.1:8090", -1
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusRequestEntityTooLarge || mcp.calls.Load() != 0 {
		t.Fatalf("streamed oversize body: status %d, MCP calls %d", w.Code, mcp.calls.Load())
	}

	if w := (frontDoorRequest{path: "/mcp", body: ping}).do(h); w.Code != http.StatusOK {
		t.Fatalf("body at the limit: status %d", w.Code)
	}
}

func TestFrontDoorRoutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		edit     func(*Options)
		req      frontDoorRequest
		want     int
		wantBody string
	}{
		{"healthz", nil, frontDoorRequest{method: "GET", path: "/healthz"}, 200, `{"status":"ok"}`},
		{"ready", func(o *Options) {
			o.Ready = func(context.Context, bool) (bool, any) { return true, map[string]any{"dagu": "reachable"} }
		}, frontDoorRequest{method: "GET", path: "/readyz"}, 200, `{"dagu":"reachable"}`},
		{"not ready", func(o *Options) {
			o.Ready = func(context.Context, bool) (bool, any) { return false, map[string]any{"dagu": "unreachable"} }
		}, frontDoorRequest{method: "GET", path: "/readyz"}, 503, `{"dagu":"unreachable"}`},
		{"not ready without body", func(o *Options) {
			o.Ready = func(context.Context, bool) (bool, any) { return false, nil }
		}, frontDoorRequest{method: "GET", path: "/readyz"}, 503, `{"status":"not ready"}`},
		{"no readiness func", nil, frontDoorRequest{method: "GET", path: "/readyz"}, 200, `{"status":"ready"}`},
		{"mcp get reaches handler", nil, frontDoorRequest{method: "GET", path: "/mcp"}, 200, `{"jsonrpc":"2.0"}`},
		{"mcp delete reaches handler", nil, frontDoorRequest{method: "DELETE", path: "/mcp"}, 200, `{"jsonrpc":"2.0"}`},
		{"mcp put", nil, frontDoorRequest{method: "PUT", path: "/mcp"}, 405, ""},
		{"healthz post", nil, frontDoorRequest{method: "POST", path: "/healthz"}, 405, ""},
		{"no metrics handler", func(o *Options) { o.Metrics = nil }, frontDoorRequest{method: "GET", path: "/metrics"}, 404, ""},
		{"unknown path", nil, frontDoorRequest{method: "GET", path: "/admin"}, 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, tt.edit)
			w := tt.req.do(h)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d", w.Code, tt.want)
			}
			if got := strings.TrimSpace(w.Body.String()); tt.wantBody != "" && got != tt.wantBody {
				t.Errorf("body %s, want %s", got, tt.wantBody)
			}
		})
	}
}

func TestFrontDoorReadyGetsDeadline(t *testing.T) {
	t.Parallel()
	var hadDeadline bool
	h, _ := frontDoor(t, func(o *Options) {
		o.Ready = func(ctx context.Context, _ bool) (bool, any) {
			_, hadDeadline = ctx.Deadline()
			return true, nil
		}
	})
	frontDoorRequest{method: "GET", path: "/readyz"}.do(h)
	if !hadDeadline {
		t.Error("readiness check ran without a deadline")
	}
}

func TestFrontDoorLogsAndRecovers(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h, err := New(Options{
		MCP:    http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }),
		Tokens: []string{tokenA},
		Listen: "127.0.0.1:8090",
		Logger: logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	w := frontDoorRequest{path: "/mcp?text-content=json", auth: "Bearer " + tokenA, origin: "http://localhost:8090"}.do(h)
	if w.Code != http.StatusInternalServerError || jsonBody(t, w)["error"] != "internal error" {
		t.Fatalf("panic answered %d %q", w.Code, w.Body.String())
	}
	text := logs.String()
	for _, want := range []string{`"panic":"boom"`, `"method":"POST"`, `"path":"/mcp"`, `"status":500`, `"remote":"192.0.2.1:1234"`, `"duration_ms"`} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %s: %s", want, text)
		}
	}
	for _, leak := range []string{tokenA, "text-content=json", "localhost:8090"} {
		if strings.Contains(text, leak) {
			t.Errorf("log reveals %q: %s", leak, text)
		}
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    Options
	}{
		{"no mcp handler", Options{Listen: "127.0.0.1:8090"}},
		{"bad listen", Options{MCP: &fakeMCP{}, Listen: "nowhere"}},
		{"bad allowed host", Options{MCP: &fakeMCP{}, Listen: "127.0.0.1:8090", AllowedHosts: []string{"h:port"}}},
		{"public listen without tokens", Options{MCP: &fakeMCP{}, Listen: "0.0.0.0:8090"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := New(tt.o); err == nil {
				t.Error("expected an error")
			}
		})
	}
}

func FuzzBearerToken(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer  abc ", "Basic abc", "Bearer", "Bearer ", "", "BEARER a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		token, ok := bearerToken(header)
		if !ok {
			if token != "" {
				t.Fatalf("%q: rejected but returned %q", header, token)
			}
			return
		}
		if token == "" || strings.TrimSpace(token) != token {
			t.Fatalf("%q: bad token %q", header, token)
		}
		if again, ok := bearerToken("Bearer " + token); !ok || again != token {
			t.Fatalf("%q: token %q does not round-trip (%q)", header, token, again)
		}
	})
}

func BenchmarkTokenAuthAllows(b *testing.B) {
	auth := newTokenAuth([]string{tokenA, tokenB, "token-c-0123456789abcdef"}, "", nil, nil)
	header := "Bearer " + tokenB
	for b.Loop() {
		if !auth.checkToken(header).accepted {
			b.Fatal("token refused")
		}
	}
}

func BenchmarkFrontDoorMCP(b *testing.B) {
	h, err := New(Options{MCP: &fakeMCP{}, Tokens: []string{tokenA}, Listen: "127.0.0.1:8090"})
	if err != nil {
		b.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		r.Host = "127.0.0.1:8090"
		r.Header.Set("Authorization", "Bearer "+tokenA)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}
