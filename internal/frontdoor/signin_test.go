// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// Tokens the fake provider knows.
const (
	jwtSRE       = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzcmUifQ.c2ln"
	jwtNoRule    = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJub3J1bGUifQ.c2ln"
	jwtNoScope   = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJub3Njb3BlIn0.c2ln"
	jwtForged    = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.c2ln"
	jwtNoKeysYet = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsYXRlciJ9.c2ln"
	issuer       = "https://idp.example.com/realms/team"
)

// fakeProvider decides as SignIn.Admit would, recording what it was asked.
type fakeProvider struct {
	mu    sync.Mutex
	asked []string // "resource instance"
}

func (p *fakeProvider) admit(_ context.Context, token, resource, instance string) Admission {
	p.mu.Lock()
	p.asked = append(p.asked, resource+" "+instance)
	p.mu.Unlock()
	person := reqctx.Person{Issuer: issuer, Subject: "u-sre", Email: "ada@example.com"}
	caller := issuer + "#u-sre"
	switch token {
	case jwtSRE:
		return Admission{Outcome: Admitted, Shaped: true, Person: person, Caller: caller, Rule: "sre", Targets: []string{"dags"}, Credential: "dagu-key-of-sre-" + instance}
	case jwtNoRule:
		return Admission{Outcome: NoRule, Shaped: true, Person: person, Caller: caller, Reason: "no rule"}
	case jwtNoScope:
		return Admission{Outcome: InsufficientScope, Shaped: true, Reason: `the token lacks the scope "dagu.read"`}
	case jwtNoKeysYet:
		return Admission{Outcome: Unavailable, Shaped: true, Reason: "no keys"}
	}
	return Admission{Outcome: InvalidToken, Shaped: strings.Count(token, ".") == 2, Reason: "signature does not verify"}
}

func (p *fakeProvider) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

// seen is what the MCP handler behind the front door was handed.
type seen struct {
	mu         sync.Mutex
	info       reqctx.Info
	credential string
}

func (s *seen) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.info, _ = reqctx.From(r.Context())
		s.credential, _ = reqctx.Credential(r.Context())
		s.mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0"}`)
	})
}

// signInDoor is a front door with sign-in (and a static token, tokenA).
func signInDoor(t *testing.T, edit func(*Options)) (http.Handler, *fakeProvider, *seen, *testkit.LogBuffer) {
	t.Helper()
	p, s, logs := &fakeProvider{}, &seen{}, &testkit.LogBuffer{}
	o := Options{MCP: s.handler(), Listen: "127.0.0.1:8090", Tokens: []string{tokenA},
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "metrics") }),
		SignIn:  &SignIn{Issuer: issuer, Scopes: []string{"dagu.read"}, Admit: p.admit}, Logger: slog.New(slog.NewJSONHandler(logs, nil))}
	if edit != nil {
		edit(&o)
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return h, p, s, logs
}

// TestSignInAdmitsAPersonWithTheirRule: an admitted token reaches the MCP
// handler with the person, the rule, its targets, the per-person caller
// and the rule's Dagu key, verified at the endpoint's resource URL.
func TestSignInAdmitsAPersonWithTheirRule(t *testing.T) {
	t.Parallel()
	h, p, s, logs := signInDoor(t, nil)
	if w := (frontDoorRequest{path: "/mcp", auth: "Bearer " + jwtSRE}).do(h); w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if q := p.questions(); len(q) != 1 || q[0] != "http://127.0.0.1:8090/mcp default" {
		t.Errorf("asked %q, want the /mcp resource of the instance default", q)
	}
	info := s.info
	if info.Trust != reqctx.TrustVerified || info.Caller != issuer+"#u-sre" || info.Rule != "sre" ||
		info.Person == nil || info.Person.Email != "ada@example.com" || strings.Join(info.Targets, ",") != "dags" {
		t.Errorf("the handler got %+v", info)
	}
	if s.credential != "dagu-key-of-sre-default" {
		t.Errorf("credential %q, want the rule's key", s.credential)
	}
	line := logs.String()
	for _, want := range []string{`"sub":"u-sre"`, `"email":"ada@example.com"`, `"rule":"sre"`} {
		if !strings.Contains(line, want) {
			t.Errorf("access line lacks %s: %s", want, line)
		}
	}
	if strings.Contains(line, jwtSRE) || strings.Contains(line, "dagu-key-of-sre") {
		t.Errorf("the log holds the token or the rule's key: %s", line)
	}
}

// TestSignInRefusals: each refusal has its status, challenge and message.
func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	h, _, _, logs := signInDoor(t, nil)
	metadata := `resource_metadata="http://127.0.0.1:8090/.well-known/oauth-protected-resource"`
	cases := []struct {
		name, auth string
		status     int
		challenge  []string
		message    string
	}{
		{"no token", "", http.StatusUnauthorized, []string{metadata, `scope="dagu.read"`}, "sign in with " + issuer},
		{"forged token", "Bearer " + jwtForged, http.StatusUnauthorized, []string{metadata, `scope="dagu.read"`, `error="invalid_token"`}, "signature does not verify"},
		{"mistyped static token", "Bearer token-a-0123456789abcdeX", http.StatusUnauthorized, []string{`error="invalid_token"`}, "mistyped, or the operator rotated"},
		{"scope missing", "Bearer " + jwtNoScope, http.StatusForbidden, []string{`error="insufficient_scope"`, `scope="dagu.read"`, metadata}, `lacks the scope \"dagu.read\"`},
		{"no rule", "Bearer " + jwtNoRule, http.StatusForbidden, nil, "no rule of this gateway's access policy gives you access to /mcp"},
		{"no keys yet", "Bearer " + jwtNoKeysYet, http.StatusServiceUnavailable, nil, "cannot admit sign-ins"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := (frontDoorRequest{path: "/mcp", auth: tc.auth}).do(h)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			challenge := w.Header().Get("WWW-Authenticate")
			for _, want := range tc.challenge {
				if !strings.Contains(challenge, want) {
					t.Errorf("challenge %q lacks %s", challenge, want)
				}
			}
			if tc.challenge == nil && challenge != "" {
				t.Errorf("challenge %q where none belongs", challenge)
			}
			if !strings.Contains(w.Body.String(), tc.message) {
				t.Errorf("body %s does not say %q", w.Body, tc.message)
			}
		})
	}
	t.Run("static token", func(t *testing.T) {
		t.Parallel()
		if w := (frontDoorRequest{path: "/mcp", auth: "Bearer " + tokenA}).do(h); w.Code != http.StatusOK {
			t.Fatalf("a static token beside sign-in: %d", w.Code)
		}
	})
	t.Cleanup(func() {
		if text := logs.String(); !strings.Contains(text, `"signin_refused":"no_rule"`) || strings.Contains(text, jwtForged) {
			t.Errorf("the access log of refusals: %s", text)
		}
	})
}

// TestSignInTokensAreForMCPEndpoints: /metrics takes static tokens only,
// and never asks the provider.
func TestSignInTokensAreForMCPEndpoints(t *testing.T) {
	t.Parallel()
	h, p, _, _ := signInDoor(t, nil)
	if w := (frontDoorRequest{method: http.MethodGet, path: "/metrics", auth: "Bearer " + jwtSRE}).do(h); w.Code != http.StatusUnauthorized {
		t.Errorf("/metrics with a sign-in token: %d", w.Code)
	}
	if w := (frontDoorRequest{method: http.MethodGet, path: "/metrics", auth: "Bearer " + tokenA}).do(h); w.Code != http.StatusOK {
		t.Errorf("/metrics with a static token: %d", w.Code)
	}
	if q := p.questions(); len(q) != 0 {
		t.Errorf("the provider was asked about /metrics: %q", q)
	}
	only, _, _, _ := signInDoor(t, func(o *Options) { o.Tokens = nil })
	w := (frontDoorRequest{method: http.MethodGet, path: "/metrics", auth: "Bearer " + jwtSRE}).do(only)
	if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), "--metrics-listen") {
		t.Errorf("/metrics with sign-in only: %d %s", w.Code, w.Body)
	}
}

// TestSignInAtInstances: a token is verified at the resource of the
// instance's own endpoint, and the rule's key is the one of that instance.
func TestSignInAtInstances(t *testing.T) {
	t.Parallel()
	h, p, _, _ := signInDoor(t, func(o *Options) { o.MCP, o.Instances = nil, newFakeEndpoints("default", "staging") })
	w := (frontDoorRequest{path: "/dagu/staging/mcp", auth: "Bearer " + jwtSRE}).do(h)
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Body.String(), "staging "+issuer+"#u-sre") {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if q := p.questions(); len(q) != 1 || q[0] != "http://127.0.0.1:8090/dagu/staging/mcp staging" {
		t.Errorf("asked %q", q)
	}
	w = (frontDoorRequest{path: "/dagu/staging/mcp", auth: "Bearer " + jwtNoRule}).do(h)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "/dagu/staging/mcp") {
		t.Errorf("no rule at staging: %d %s", w.Code, w.Body)
	}
	w = (frontDoorRequest{path: "/dagu/staging/mcp"}).do(h)
	if c := w.Header().Get("WWW-Authenticate"); !strings.Contains(c, "/.well-known/oauth-protected-resource/dagu/staging/mcp") {
		t.Errorf("challenge %q does not point at the instance's metadata", c)
	}
}

// TestSignInMetadata: each endpoint's metadata names itself as the
// resource, the provider and the scopes.
func TestSignInMetadata(t *testing.T) {
	t.Parallel()
	h, _, _, _ := signInDoor(t, func(o *Options) { o.MCP, o.Instances = nil, newFakeEndpoints("default", "staging") })
	cases := map[string]string{
		"/.well-known/oauth-protected-resource":                  "http://127.0.0.1:8090/mcp",
		"/.well-known/oauth-protected-resource/mcp":              "http://127.0.0.1:8090/mcp",
		"/.well-known/oauth-protected-resource/dagu/staging/mcp": "http://127.0.0.1:8090/dagu/staging/mcp",
	}
	for path, resource := range cases {
		w := (frontDoorRequest{method: http.MethodGet, path: path}).do(h)
		body := jsonBody(t, w)
		servers, _ := body["authorization_servers"].([]any)
		scopes, _ := body["scopes_supported"].([]any)
		if w.Code != http.StatusOK || body["resource"] != resource || len(servers) != 1 || servers[0] != issuer || len(scopes) != 1 || scopes[0] != "dagu.read" {
			t.Errorf("%s: %d %v", path, w.Code, body)
		}
	}
	w := (frontDoorRequest{path: "/register"}).do(h)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "register the client with "+issuer) {
		t.Errorf("/register: %d %s", w.Code, w.Body)
	}
}

// TestSignInIsNotPassthrough: the two modes exclude each other.
func TestSignInIsNotPassthrough(t *testing.T) {
	t.Parallel()
	_, err := New(Options{MCP: http.NotFoundHandler(), Listen: "127.0.0.1:8090", Passthrough: true,
		Verify: func(context.Context, string, string) (reqctx.Trust, string) { return reqctx.TrustVerified, "" },
		SignIn: &SignIn{Issuer: issuer, Admit: (&fakeProvider{}).admit}})
	if err == nil || !strings.Contains(err.Error(), "two modes") {
		t.Fatalf("New = %v", err)
	}
}

// TestSignInResourceSchemeOnlyFromTrustedProxies: the resource a sign-in
// token's audience must match takes its scheme from X-Forwarded-Proto
// only when a --trusted-proxies peer sent it; a client on plain http that
// writes X-Forwarded-Proto: https is verified at the http resource, so a
// token for https://HOST:PORT/mcp is not accepted there (docs/security.md).
func TestSignInResourceSchemeOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, peer string
		trusted    bool
		want       string
	}{
		{"no trusted proxies", "203.0.113.9:4000", false, "http://127.0.0.1:8090/mcp default"},
		{"an untrusted peer", "203.0.113.9:4000", true, "http://127.0.0.1:8090/mcp default"},
		{"a trusted proxy", "10.0.0.7:4000", true, "https://127.0.0.1:8090/mcp default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, p, _, _ := signInDoor(t, func(o *Options) {
				if tc.trusted {
					o.TrustedProxies, o.ClientIPHeader = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, "X-Forwarded-For"
				}
			})
			(frontDoorRequest{path: "/mcp", auth: "Bearer " + jwtSRE}).doWith(h, func(r *http.Request) {
				r.RemoteAddr = tc.peer
				r.Header.Set("X-Forwarded-Proto", "https")
			})
			if q := p.questions(); len(q) != 1 || q[0] != tc.want {
				t.Errorf("asked %q, want %q", q, tc.want)
			}
		})
	}
}
