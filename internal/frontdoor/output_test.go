// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestOutputChoiceByURL: the query of an MCP URL chooses the client's
// output (the flags' names and values); anything else is a 400 that names
// the valid parameters, and no request reaches the MCP handler then.
func TestOutputChoiceByURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, path string
		want       int
		choice     reqctx.Output
		says       []string
	}{
		{name: "no query", path: "/mcp", want: 200},
		{name: "empty query", path: "/mcp?", want: 200},
		{name: "json and omit", path: "/mcp?text-content=json&resource-links=omit", want: 200,
			choice: reqctx.Output{TextContent: "json", ResourceLinks: "omit"}},
		{name: "contract", path: "/mcp?text-content=contract&resource-links=contract", want: 200,
			choice: reqctx.Output{TextContent: "contract", ResourceLinks: "contract"}},
		{name: "text content alone", path: "/mcp?text-content=json", want: 200, choice: reqctx.Output{TextContent: "json"}},
		{name: "unknown name", path: "/mcp?text_content=json", want: 400,
			says: []string{`"text_content"`, "text-content=contract|json", "resource-links=contract|omit",
				"/mcp?text-content=json&resource-links=omit"}},
		{name: "invalid value", path: "/mcp?resource-links=none", want: 400,
			says: []string{`resource-links="none": use contract or omit`}},
		{name: "value in another case", path: "/mcp?text-content=JSON", want: 400, says: []string{"use contract or json"}},
		{name: "given twice", path: "/mcp?text-content=json&text-content=contract", want: 400, says: []string{"2 times"}},
		{name: "empty value", path: "/mcp?text-content=", want: 400, says: []string{"use contract or json"}},
		{name: "malformed", path: "/mcp?text-content=%zz", want: 400, says: []string{"malformed", "text-content=contract|json"}},
		{name: "long name cut", path: "/mcp?" + strings.Repeat("x", 500) + "=1", want: 400, says: []string{strings.Repeat("x", 40) + "…"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var seen []reqctx.Output
			h, err := New(Options{Listen: "127.0.0.1:8090", MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen = append(seen, reqctx.OutputOf(r.Context()))
				_, _ = w.Write([]byte(`{}`))
			})})
			if err != nil {
				t.Fatal(err)
			}
			w := frontDoorRequest{path: tc.path, body: ping}.do(h)
			if w.Code != tc.want {
				t.Fatalf("status %d (%s), want %d", w.Code, w.Body, tc.want)
			}
			if tc.want != 200 {
				if len(seen) != 0 {
					t.Error("a refused request reached the MCP handler")
				}
				if strings.Contains(w.Body.String(), `\u0026`) {
					t.Errorf("the body escapes & for HTML: %s", w.Body)
				}
				msg, _ := jsonBody(t, w)["message"].(string)
				for _, s := range tc.says {
					if !strings.Contains(msg, s) {
						t.Errorf("message %q lacks %q", msg, s)
					}
				}
				if len(msg) > 600 {
					t.Errorf("message of %d bytes", len(msg))
				}
				return
			}
			if len(seen) != 1 || seen[0] != tc.choice {
				t.Errorf("the handler saw %+v, want %+v", seen, tc.choice)
			}
		})
	}
}

// TestOutputParamsAreTheFlags: each URL parameter is the flag of the same
// name, whose default is the parameter's first value and whose validation
// takes exactly the parameter's values.
func TestOutputParamsAreTheFlags(t *testing.T) {
	t.Parallel()
	for _, p := range outputParams {
		s, ok := config.Lookup(p.name)
		if !ok {
			t.Fatalf("no flag --%s", p.name)
		}
		if s.Default != p.values[0] {
			t.Errorf("--%s defaults to %q, the parameter's first value is %q", p.name, s.Default, p.values[0])
		}
		for _, v := range p.values {
			if !strings.Contains(s.Help, v) {
				t.Errorf("--%s's help does not name %q", p.name, v)
			}
		}
	}
}

// TestOutputChoiceReachesTheTool: through the go-sdk's stateless handler,
// a tool handler's context carries the choice the front door read from the
// URL (the SDK connects each request's session with the HTTP request's
// context).
func TestOutputChoiceReachesTheTool(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "choice", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			o := reqctx.OutputOf(ctx)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: o.TextContent + "/" + o.ResourceLinks}}}, nil
		})
	front, err := New(Options{MCP: MCPHandler(server, nil), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(front)
	t.Cleanup(ts.Close)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"choice","arguments":{}}}`
	for path, want := range map[string]string{
		"/mcp": `"text":"/"`,
		"/mcp?text-content=json&resource-links=omit": `"text":"json/omit"`,
		"/mcp?resource-links=contract":               `"text":"/contract"`,
	} {
		req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(call))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		expectMCPAnswer(t, ts, req, 200, want)
	}
}

// BenchmarkOutputChoice is what the output parameters add to a request
// through the front door: /mcp (no query) against the documented URL.
func BenchmarkOutputChoice(b *testing.B) {
	h, err := New(Options{MCP: &fakeMCP{}, Tokens: []string{tokenA}, Listen: "127.0.0.1:8090"})
	if err != nil {
		b.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, path := range []string{"/mcp", "/mcp?text-content=json&resource-links=omit"} {
		b.Run(path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
				r.Host = "127.0.0.1:8090"
				r.Header.Set("Authorization", "Bearer "+tokenA)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
