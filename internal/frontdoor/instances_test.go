// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// fakeEndpoints serves named instances whose MCP handlers answer their
// name, and records acquisitions, releases and the keys each verified.
type fakeEndpoints struct {
	names []string

	mu       sync.Mutex
	held     int
	verified map[string][]string // instance -> credentials it was asked about
}

func newFakeEndpoints(names ...string) *fakeEndpoints {
	return &fakeEndpoints{names: names, verified: map[string][]string{}}
}

func (f *fakeEndpoints) Names() []string { return f.names }

func (f *fakeEndpoints) Endpoint(name string) (Endpoint, func(), bool) {
	if !slices.Contains(f.names, name) {
		return Endpoint{}, nil, false
	}
	f.mu.Lock()
	f.held++
	f.mu.Unlock()
	ep := Endpoint{
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			info, _ := reqctx.From(r.Context())
			_, _ = io.WriteString(w, name+" "+info.Caller)
		}),
		Verify: func(_ context.Context, credential, _ string) (reqctx.Trust, string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.verified[name] = append(f.verified[name], credential)
			if credential == "key-of-"+name {
				return reqctx.TrustVerified, "user@" + name
			}
			return reqctx.TrustUnchecked, "unverified"
		},
	}
	return ep, func() { f.mu.Lock(); f.held--; f.mu.Unlock() }, true
}

func (f *fakeEndpoints) stillHeld() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.held
}

const stagingToken = "token-staging-0123456789"

// instanceDoor is a front door with tokens (one of every instance, one of
// staging only) over the given instances.
func instanceDoor(t *testing.T, eps *fakeEndpoints) http.Handler {
	t.Helper()
	h, err := New(Options{
		Instances: eps,
		Tokens:    []string{tokenA, "staging-ci:" + stagingToken + " instances=staging"},
		Listen:    "127.0.0.1:8090",
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func serveInstance(h http.Handler, method, target, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	r.Host = "127.0.0.1:8090"
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestInstanceEndpoints(t *testing.T) {
	t.Parallel()
	eps := newFakeEndpoints("prod", "staging")
	h := instanceDoor(t, eps)
	const both = "Its endpoints: /dagu/prod/mcp, /dagu/staging/mcp."
	tests := []struct {
		name, method, target, token string
		status                      int
		body                        string // substring of the answer
		absent                      string // must not be in the answer
	}{
		{"prod", http.MethodPost, "/dagu/prod/mcp", tokenA, http.StatusOK, "prod ", ""},
		{"staging", http.MethodPost, "/dagu/staging/mcp", tokenA, http.StatusOK, "staging ", ""},
		{"staging token on staging", http.MethodPost, "/dagu/staging/mcp", stagingToken, http.StatusOK, "staging staging-ci", ""},
		{"staging token on prod", http.MethodPost, "/dagu/prod/mcp", stagingToken, http.StatusForbidden, "not for the Dagu instance prod. Its endpoints: /dagu/staging/mcp.", "/dagu/prod/mcp,"},
		{"output choice", http.MethodPost, "/dagu/prod/mcp?text-content=json", tokenA, http.StatusOK, "prod", ""},
		{"bad output choice", http.MethodPost, "/dagu/prod/mcp?text-content=xml", tokenA, http.StatusBadRequest, "text-content", ""},
		{"no default", http.MethodPost, "/mcp", tokenA, http.StatusNotFound, "none is named default, so /mcp serves none. " + both, ""},
		{"unknown name", http.MethodPost, "/dagu/dev/mcp", tokenA, http.StatusNotFound, "no Dagu instance by that name. " + both, "dev"},
		{"unknown name, staging token", http.MethodPost, "/dagu/dev/mcp", stagingToken, http.StatusNotFound, "Its endpoints: /dagu/staging/mcp.", "prod"},
		{"unknown name, no token", http.MethodPost, "/dagu/dev/mcp", "", http.StatusUnauthorized, "bearer token", "prod"},
		{"wrong token", http.MethodPost, "/dagu/prod/mcp", "not-a-token-0123456789", http.StatusUnauthorized, "not one this gateway accepts", "prod"},
		{"upper case", http.MethodPost, "/dagu/PROD/mcp", tokenA, http.StatusNotFound, "No MCP endpoint at this path. " + both, ""},
		{"empty name", http.MethodPost, "/dagu//mcp", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"dot dot", http.MethodPost, "/dagu/../mcp", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"encoded dot dot", http.MethodPost, "/dagu/%2e%2e/mcp", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"encoded letter", http.MethodPost, "/dagu/pr%6fd/mcp", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"trailing slash", http.MethodPost, "/dagu/prod/mcp/", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"no mcp", http.MethodGet, "/dagu/prod", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"bare prefix", http.MethodGet, "/dagu", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"sub path", http.MethodPost, "/dagu/prod/mcp/x", tokenA, http.StatusNotFound, "No MCP endpoint", ""},
		{"method", http.MethodPut, "/dagu/prod/mcp", tokenA, http.StatusMethodNotAllowed, "method not allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := serveInstance(h, tt.method, tt.target, tt.token)
			body := w.Body.String()
			if w.Code != tt.status || !strings.Contains(body, tt.body) || tt.absent != "" && strings.Contains(body, tt.absent) {
				t.Fatalf("%s %s: %d %s; want %d with %q, without %q", tt.method, tt.target, w.Code, body, tt.status, tt.body, tt.absent)
			}
			if tt.status == http.StatusNotFound || tt.status == http.StatusForbidden {
				var rpc struct {
					JSONRPC string             `json:"jsonrpc"`
					Error   struct{ Code int } `json:"error"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &rpc); err != nil || rpc.JSONRPC != "2.0" || rpc.Error.Code != -32600 {
					t.Errorf("the refusal is not a JSON-RPC error: %s", body)
				}
			}
		})
	}
	if n := eps.stillHeld(); n != 0 {
		t.Errorf("%d endpoints were never given back", n)
	}
}

func TestInstanceBatchAndDefault(t *testing.T) {
	t.Parallel()
	h := instanceDoor(t, newFakeEndpoints("default", "prod"))
	if w := serveInstance(h, http.MethodPost, "/mcp", tokenA); w.Code != http.StatusOK || !strings.HasPrefix(w.Body.String(), "default ") {
		t.Fatalf("/mcp: %d %s", w.Code, w.Body)
	}
	r := httptest.NewRequest(http.MethodPost, "/dagu/prod/mcp", strings.NewReader(`[{"jsonrpc":"2.0"}]`))
	r.Host = "127.0.0.1:8090"
	r.Header.Set("Authorization", "Bearer "+tokenA)
	r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "batches") {
		t.Fatalf("a batch on an instance: %d %s", w.Code, w.Body)
	}
	w = serveInstance(h, http.MethodPost, "/dagu/nope/mcp", tokenA)
	if !strings.Contains(w.Body.String(), "Its endpoints: /mcp, /dagu/default/mcp, /dagu/prod/mcp.") {
		t.Fatalf("the 404 does not list /mcp: %s", w.Body)
	}
}

func TestInstanceMetadataAndChallenge(t *testing.T) {
	t.Parallel()
	h := instanceDoor(t, newFakeEndpoints("prod"))
	w := serveInstance(h, http.MethodGet, "/.well-known/oauth-protected-resource/dagu/prod/mcp", "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"resource":"http://127.0.0.1:8090/dagu/prod/mcp"`) {
		t.Fatalf("instance metadata: %d %s", w.Code, w.Body)
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource/dagu/dev/mcp", "/.well-known/oauth-protected-resource/dagu/../mcp"} {
		if w := serveInstance(h, http.MethodGet, path, ""); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
	w = serveInstance(h, http.MethodPost, "/dagu/prod/mcp", "")
	want := `Bearer resource_metadata="http://127.0.0.1:8090/.well-known/oauth-protected-resource/dagu/prod/mcp"`
	if got := w.Header().Get("WWW-Authenticate"); w.Code != http.StatusUnauthorized || got != want {
		t.Fatalf("challenge %d %q, want %q", w.Code, got, want)
	}
}

// TestInstancePassthroughKeysStayWithTheirInstance: a caller's key is
// checked by the instance it was presented to and by no other.
func TestInstancePassthroughKeysStayWithTheirInstance(t *testing.T) {
	t.Parallel()
	eps := newFakeEndpoints("prod", "staging")
	h, err := New(Options{
		Instances: eps, Passthrough: true, Listen: "127.0.0.1:8090",
		Verify: func(context.Context, string, string) (reqctx.Trust, string) {
			t.Error("the process-wide verifier checked an endpoint's caller")
			return reqctx.TrustUnchecked, ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := serveInstance(h, http.MethodPost, "/dagu/staging/mcp", "key-of-staging"); w.Code != http.StatusOK || w.Body.String() != "staging user@staging" {
		t.Fatalf("staging: %d %s", w.Code, w.Body)
	}
	if w := serveInstance(h, http.MethodPost, "/dagu/prod/mcp", "key-of-staging"); w.Body.String() != "prod unverified" {
		t.Fatalf("staging's key on prod: %d %s", w.Code, w.Body)
	}
	if w := serveInstance(h, http.MethodPost, "/dagu/prod/mcp", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("no key: %d", w.Code)
	}
	eps.mu.Lock()
	defer eps.mu.Unlock()
	if !slices.Equal(eps.verified["staging"], []string{"key-of-staging"}) || !slices.Equal(eps.verified["prod"], []string{"key-of-staging"}) {
		t.Fatalf("keys checked: %v", eps.verified)
	}
}

// TestSingleDaguTokenScopes: without instances the one Dagu is the instance default
// for a token's instances=; tokens without the list work as before.
func TestSingleDaguTokenScopes(t *testing.T) {
	t.Parallel()
	h, _ := frontDoor(t, func(o *Options) {
		o.Tokens = []string{tokenA, "ci:" + stagingToken + " instances=staging", tokenB + " instances=default,staging"}
	})
	for token, want := range map[string]int{tokenA: http.StatusOK, stagingToken: http.StatusForbidden, tokenB: http.StatusOK} {
		if w := serveInstance(h, http.MethodPost, "/mcp", token); w.Code != want {
			t.Errorf("token %.8s: %d %s, want %d", token, w.Code, w.Body, want)
		}
	}
	if w := serveInstance(h, http.MethodPost, "/dagu/default/mcp", tokenA); w.Code != http.StatusNotFound {
		t.Errorf("/dagu/default/mcp without instances: %d", w.Code)
	}
}

// TestMetricsNeedATokenOfEveryInstance: /metrics carries the series of
// every instance (dagu_instance="prod" and the others), so a token limited
// to some instances is refused it (as /readyz gives such a token the detail
// of its own instances only); a token of every instance, listed or not,
// reads it. Before, a staging-only token read prod's series.
func TestMetricsNeedATokenOfEveryInstance(t *testing.T) {
	t.Parallel()
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`dagu_gateway_read_calls_total{dagu_instance="prod"} 1`))
	})
	tokens := []string{tokenA, "staging-ci:" + stagingToken + " instances=staging", tokenB + " instances=staging,prod"}
	several, err := New(Options{Instances: newFakeEndpoints("prod", "staging"), Metrics: metrics, Tokens: tokens, Listen: "127.0.0.1:8090"})
	if err != nil {
		t.Fatal(err)
	}
	one, err := New(Options{MCP: metrics, Metrics: metrics, Tokens: tokens, Listen: "127.0.0.1:8090"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		h     http.Handler
		token string
		want  int
	}{
		{"every instance", several, tokenA, http.StatusOK},
		{"every instance listed", several, tokenB, http.StatusOK},
		{"staging only", several, stagingToken, http.StatusForbidden},
		{"no token", several, "", http.StatusUnauthorized},
		{"one Dagu, staging only", one, stagingToken, http.StatusForbidden},
		{"one Dagu, every instance", one, tokenA, http.StatusOK},
	} {
		w := serveInstance(tt.h, http.MethodGet, "/metrics", tt.token)
		if w.Code != tt.want || w.Code != http.StatusOK && strings.Contains(w.Body.String(), "dagu_instance") {
			t.Errorf("%s: %d %s; want %d", tt.name, w.Code, w.Body.String(), tt.want)
		}
	}
}

// TestPassthroughMetricsNeedAKeyOfEveryInstance: in passthrough /metrics
// answers as for tokens: a key every instance accepts reads it, a key some
// accept gets 403 (Options.Verify says reqctx.TrustSomeInstances), a key
// none accepts 401 with the challenge (issue 38: a key of one instance
// read every instance's series).
func TestPassthroughMetricsNeedAKeyOfEveryInstance(t *testing.T) {
	t.Parallel()
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`dagu_gateway_read_calls_total{dagu_instance="prod"} 1`))
	})
	verdicts := map[string]reqctx.Trust{"key-of-all": reqctx.TrustVerified, "key-of-prod": reqctx.TrustSomeInstances, "key-of-nobody": reqctx.TrustRefused}
	h, err := New(Options{Instances: newFakeEndpoints("prod", "staging"), Metrics: metrics, Passthrough: true, Listen: "127.0.0.1:8090",
		Verify: func(_ context.Context, credential, _ string) (reqctx.Trust, string) {
			return verdicts[credential], "caller"
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key  string
		want int
	}{
		{"key-of-all", http.StatusOK},
		{"key-of-prod", http.StatusForbidden},
		{"key-of-nobody", http.StatusUnauthorized},
		{"", http.StatusUnauthorized},
	} {
		w := serveInstance(h, http.MethodGet, "/metrics", tt.key)
		if w.Code != tt.want || w.Code != http.StatusOK && strings.Contains(w.Body.String(), "dagu_instance") {
			t.Errorf("%q: %d %s; want %d", tt.key, w.Code, w.Body.String(), tt.want)
		}
		if w.Code == http.StatusForbidden && w.Header().Get("WWW-Authenticate") != "" {
			t.Errorf("%q: a 403 with a challenge: %q", tt.key, w.Header().Get("WWW-Authenticate"))
		}
	}
}

// TestInstanceAccessLogNamesTheInstance: the access-log line of a request
// routed to an instance carries instance=<name> (docs/instances.md's "every log
// line of an instance, the access log included"), also when the token is
// refused there; a path that names no served instance carries none.
func TestInstanceAccessLogNamesTheInstance(t *testing.T) {
	t.Parallel()
	var logs testkit.LogBuffer
	h, err := New(Options{
		Instances: newFakeEndpoints("prod", "staging", "default"),
		Tokens:    []string{tokenA, "staging-ci:" + stagingToken + " instances=staging"},
		Listen:    "127.0.0.1:8090",
		Logger:    slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ target, token, want string }{
		{"/dagu/prod/mcp", tokenA, "prod"},
		{"/dagu/staging/mcp", stagingToken, "staging"},
		{"/dagu/prod/mcp", stagingToken, "prod"},
		{"/mcp", tokenA, "default"},
		{"/dagu/dev/mcp", tokenA, ""},
		{"/dagu/prod/mcp/x", tokenA, ""},
	}
	for _, tt := range tests {
		serveInstance(h, http.MethodPost, tt.target, tt.token)
	}
	var got []string
	for _, l := range logs.JSONLines(t) {
		if l["msg"] == "http request" {
			name, _ := l["instance"].(string)
			got = append(got, l["path"].(string)+"="+name)
		}
	}
	var want []string
	for _, tt := range tests {
		want = append(want, tt.target+"="+tt.want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("access lines (path=instance):\n got %v\nwant %v", got, want)
	}
}
