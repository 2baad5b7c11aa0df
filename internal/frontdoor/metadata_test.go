// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// metadataRequest is one request to the front door with the transport
// details the metadata depends on.
type metadataRequest struct {
	method, path, host, auth, forwardedProto string
	forwarded                                string // a Forwarded header
	tls                                      bool
	local                                    string // the address the connection arrived on
	peer                                     string // the TCP peer (httptest's 192.0.2.1:1234 when empty)
}

func (q metadataRequest) do(h http.Handler) *httptest.ResponseRecorder {
	method := q.method
	if method == "" {
		method = http.MethodGet
	}
	r := httptest.NewRequest(method, q.path, nil)
	r.Host = q.host
	if q.auth != "" {
		r.Header.Set("Authorization", q.auth)
	}
	if q.forwardedProto != "" {
		r.Header.Set("X-Forwarded-Proto", q.forwardedProto)
	}
	if q.forwarded != "" {
		r.Header.Set("Forwarded", q.forwarded)
	}
	if q.peer != "" {
		r.RemoteAddr = q.peer
	}
	if q.tls {
		r.TLS = &tls.ConnectionState{}
	}
	if q.local != "" {
		addr, err := net.ResolveTCPAddr("tcp", q.local)
		if err != nil {
			panic(err)
		}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestProtectedResourceMetadata checks the RFC 9728 document: open (no
// token), behind the host guard, naming no authorization server, served
// only when tokens are configured, and naming the /mcp URL of --public-url,
// else of a Host the guard checked, else of the address the connection
// arrived on: never an unchecked Host (issue 28, attack 7: a public
// listener without --allowed-host answered "resource":"http://evil.example/mcp").
func TestProtectedResourceMetadata(t *testing.T) {
	t.Parallel()
	const local = "127.0.0.1:8090"
	const pod = "10.1.2.3:8090"
	tests := []struct {
		name         string
		listen       string
		allowed      []string
		public       string
		noTokens     bool
		req          metadataRequest
		want         int
		wantResource string
	}{
		{"root form", local, nil, "", false, metadataRequest{path: protectedResourcePath, host: local}, 200, "http://127.0.0.1:8090/mcp"},
		{"path-suffixed form", local, nil, "", false, metadataRequest{path: protectedResourceMCP, host: local}, 200, "http://127.0.0.1:8090/mcp"},
		{"localhost lower-cased", local, nil, "", false, metadataRequest{path: protectedResourcePath, host: "LocalHost:8090"}, 200, "http://localhost:8090/mcp"},
		{"ipv6 loopback", local, nil, "", false, metadataRequest{path: protectedResourcePath, host: "[::1]:8090"}, 200, "http://[::1]:8090/mcp"},
		{"open even with a wrong token", local, nil, "", false, metadataRequest{path: protectedResourcePath, host: local, auth: "Bearer nope"}, 200, "http://127.0.0.1:8090/mcp"},
		{"tls connection", local, []string{"gw.example"}, "", false, metadataRequest{path: protectedResourcePath, host: "gw.example", tls: true}, 200, "https://gw.example/mcp"},
		{"any client's forwarded proto ignored", local, []string{"gw.example"}, "", false, metadataRequest{path: protectedResourcePath, host: "gw.example", forwardedProto: "https"}, 200, "http://gw.example/mcp"},
		{"any client's forwarded proto ignored on tls", local, []string{"gw.example"}, "", false, metadataRequest{path: protectedResourcePath, host: "gw.example", forwardedProto: "http", tls: true}, 200, "https://gw.example/mcp"},
		{"public bind, allowed host", "0.0.0.0:8090", []string{"gw.example"}, "", false, metadataRequest{path: protectedResourcePath, host: "GW.example", local: pod}, 200, "http://gw.example/mcp"},
		{"public bind names the address reached", "0.0.0.0:8090", nil, "", false, metadataRequest{path: protectedResourcePath, host: pod, local: pod}, 200, "http://10.1.2.3:8090/mcp"},
		{"public bind, any host not reflected", "0.0.0.0:8090", nil, "", false, metadataRequest{path: protectedResourcePath, host: "evil.example", local: pod}, 200, "http://10.1.2.3:8090/mcp"},
		{"public bind, ipv6 address reached", "[::]:8090", nil, "", false, metadataRequest{path: protectedResourcePath, host: "evil.example", local: "[fd00::1]:8090"}, 200, "http://[fd00::1]:8090/mcp"},
		{"public bind, no address known", "0.0.0.0:8090", nil, "", false, metadataRequest{path: protectedResourcePath, host: "evil.example"}, 400, ""},
		{"public url", "0.0.0.0:8090", nil, "https://gw.example.com/dagu/", false, metadataRequest{path: protectedResourcePath, host: "evil.example", local: pod}, 200, "https://gw.example.com/dagu/mcp"},
		{"public url over a checked host", local, nil, "https://gw.example.com", false, metadataRequest{path: protectedResourceMCP, host: local, tls: true}, 200, "https://gw.example.com/mcp"},
		{"rebinding host", local, nil, "", false, metadataRequest{path: protectedResourcePath, host: "evil.example:8090"}, 403, ""},
		{"allow-list, other host", "0.0.0.0:8090", []string{"gw.example"}, "", false, metadataRequest{path: protectedResourceMCP, host: "evil.example"}, 403, ""},
		{"no tokens, no metadata", local, nil, "", true, metadataRequest{path: protectedResourcePath, host: local}, 404, ""},
		{"post", local, nil, "", false, metadataRequest{method: http.MethodPost, path: protectedResourcePath, host: local}, 405, ""},
		{"other suffix", local, nil, "", false, metadataRequest{path: protectedResourcePath + "/metrics", host: local}, 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, func(o *Options) {
				o.Listen, o.AllowedHosts, o.PublicURL = tt.listen, tt.allowed, tt.public
				if !tt.noTokens {
					o.Tokens = []string{tokenA}
				}
			})
			w := tt.req.do(h)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d (body %q)", w.Code, tt.want, w.Body.String())
			}
			if tt.want != http.StatusOK {
				return
			}
			var doc map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
				t.Fatalf("body %q: %v", w.Body.String(), err)
			}
			if doc["resource"] != tt.wantResource {
				t.Errorf("resource = %v, want %s", doc["resource"], tt.wantResource)
			}
			if methods, _ := json.Marshal(doc["bearer_methods_supported"]); string(methods) != `["header"]` {
				t.Errorf("bearer_methods_supported = %s", methods)
			}
			if servers, ok := doc["authorization_servers"]; ok {
				t.Errorf("authorization_servers = %v; the gateway has none", servers)
			}
			if ct, cc := w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"); ct != "application/json" || cc != "no-store" {
				t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
			}
		})
	}
}

// TestUnauthorizedPointsAtMetadata checks the 401: the challenge carries
// the absolute metadata URL and, for a rejected token, invalid_token; the
// body says how to configure the token. The URL never names a Host the
// guard did not check (issue 28, attack 7).
func TestUnauthorizedPointsAtMetadata(t *testing.T) {
	t.Parallel()
	const local = "127.0.0.1:8090"
	const localMetadata = `resource_metadata="http://127.0.0.1:8090/.well-known/oauth-protected-resource"`
	static := newTokenAuth([]string{tokenA}, "", nil, nil)
	msgTokenMissing, msgTokenRejected := static.missingMessage(), static.rejectedMessage()
	tests := []struct {
		name          string
		listen        string
		allowed       []string
		public        string
		req           metadataRequest
		wantChallenge string
		wantMessage   string
	}{
		{"no token", local, nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: local}, "Bearer " + localMetadata, msgTokenMissing},
		{"wrong token", local, nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: local, auth: "Bearer " + tokenB}, "Bearer " + localMetadata + `, error="invalid_token"`, msgTokenRejected},
		{"basic credentials", local, nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: local, auth: "Basic " + tokenA}, "Bearer " + localMetadata, msgTokenMissing},
		{"metrics", local, nil, "", metadataRequest{path: "/metrics", host: "localhost:8090"}, `Bearer resource_metadata="http://localhost:8090/.well-known/oauth-protected-resource"`, msgTokenMissing},
		{"a client's forwarded proto, no trusted proxies", "0.0.0.0:8090", []string{"gw.example"}, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: "gw.example", forwardedProto: "https"}, `Bearer resource_metadata="http://gw.example/.well-known/oauth-protected-resource"`, msgTokenMissing},
		{"public bind, unchecked host", "0.0.0.0:8090", nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: "evil.example", local: "10.1.2.3:8090"}, `Bearer resource_metadata="http://10.1.2.3:8090/.well-known/oauth-protected-resource"`, msgTokenMissing},
		{"public url", "0.0.0.0:8090", nil, "https://gw.example.com/dagu", metadataRequest{method: http.MethodPost, path: "/mcp", host: "evil.example", local: "10.1.2.3:8090", auth: "Bearer x"}, `Bearer resource_metadata="https://gw.example.com/dagu/.well-known/oauth-protected-resource", error="invalid_token"`, msgTokenRejected},
		{"no address known", "0.0.0.0:8090", nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: "gw.example"}, "Bearer", msgTokenMissing},
		{"unusable host", "0.0.0.0:8090", nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: "a,b"}, "Bearer", msgTokenMissing},
		{"unusable host, wrong token", "0.0.0.0:8090", nil, "", metadataRequest{method: http.MethodPost, path: "/mcp", host: "a b", auth: "Bearer x"}, `Bearer error="invalid_token"`, msgTokenRejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, mcp := frontDoor(t, func(o *Options) {
				o.Listen, o.Tokens, o.AllowedHosts, o.PublicURL = tt.listen, []string{tokenA}, tt.allowed, tt.public
			})
			w := tt.req.do(h)
			if w.Code != http.StatusUnauthorized || mcp.calls.Load() != 0 {
				t.Fatalf("status %d, MCP calls %d", w.Code, mcp.calls.Load())
			}
			if got := w.Header().Get("WWW-Authenticate"); got != tt.wantChallenge {
				t.Errorf("WWW-Authenticate = %q, want %q", got, tt.wantChallenge)
			}
			body := jsonBody(t, w)
			if body["error"] != "unauthorized" || body["message"] != tt.wantMessage {
				t.Errorf("body = %v", body)
			}
			if !strings.Contains(w.Body.String(), "Bearer <token>") {
				t.Errorf("body %s: the message should read as written, not HTML-escaped", w.Body.String())
			}
			if strings.Contains(w.Body.String(), tokenA) || strings.Contains(w.Body.String(), tokenB) {
				t.Error("the 401 echoes a token")
			}
		})
	}
}

func TestRequestOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host, want string
		ok         bool
	}{
		{"gw.example", "http://gw.example", true},
		{"GW.Example:8443", "http://gw.example:8443", true},
		{"dagu_gateway:8090", "http://dagu_gateway:8090", true},
		{"127.0.0.1", "http://127.0.0.1", true},
		{"[::1]:8090", "http://[::1]:8090", true},
		{"[2001:DB8::1]", "http://[2001:db8::1]", true},
		{"::1", "http://[::1]", true},
		{"[::ffff:1.2.3.4]:80", "http://[::ffff:1.2.3.4]:80", true},
		{"", "", false},
		{"gw.example:", "", false},
		{"gw.example:99999", "", false},
		{"-gw.example", "", false},
		{"gw..example", "", false},
		{"gw.example.", "", false},
		{`gw"example`, "", false},
		{`gw\example`, "", false},
		{"user@gw.example", "", false},
		{"gw.example/path", "", false},
		{"[fe80::1%25eth0]:80", "", false},
		{strings.Repeat("a", 64) + ".example", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Host = tt.host
			got, ok := requestOrigin(r, "http")
			if got != tt.want || ok != tt.ok {
				t.Fatalf("requestOrigin(%q) = %q, %v; want %q, %v", tt.host, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// FuzzRequestOrigin checks that whatever the Host header, an accepted
// origin is a plain URL with the same host that cannot break out of a
// quoted header value.
func FuzzRequestOrigin(f *testing.F) {
	for _, s := range []string{"gw.example:8443", "[::1]:80", "a\"b", "a b", "x,y", "1.2.3.4", "[::ffff:1.2.3.4]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Host = host
		origin, ok := requestOrigin(r, "http")
		if !ok {
			return
		}
		if strings.ContainsAny(strings.TrimPrefix(origin, "http://"), "\"\\ ,;@/?#\r\n") {
			t.Fatalf("origin %q has a delimiter", origin)
		}
		u, err := url.Parse(origin + mcpPath)
		if err != nil || u.Scheme != "http" || u.Path != mcpPath || !strings.EqualFold(u.Host, strings.TrimPrefix(origin, "http://")) {
			t.Fatalf("origin %q does not parse back: %v %+v", origin, err, u)
		}
	})
}

// TestRegistrationIsRefused checks the answer to an OAuth client's dynamic
// client registration: an OAuth error that says to send a bearer token.
func TestRegistrationIsRefused(t *testing.T) {
	t.Parallel()
	const local = "127.0.0.1:8090"
	tests := []struct {
		name      string
		noTokens  bool
		req       metadataRequest
		want      int
		wantError string
	}{
		{"refused with a reason", false, metadataRequest{method: http.MethodPost, path: registrationPath, host: local}, 403, "access_denied"},
		{"rebinding host", false, metadataRequest{method: http.MethodPost, path: registrationPath, host: "evil.example:8090"}, 403, "forbidden: unexpected Host or Origin header"},
		{"get", false, metadataRequest{path: registrationPath, host: local}, 405, ""},
		{"no tokens, no route", true, metadataRequest{method: http.MethodPost, path: registrationPath, host: local}, 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, func(o *Options) {
				if !tt.noTokens {
					o.Tokens = []string{tokenA}
				}
			})
			w := tt.req.do(h)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d (body %q)", w.Code, tt.want, w.Body.String())
			}
			if tt.wantError == "" {
				return
			}
			body := jsonBody(t, w)
			if body["error"] != tt.wantError {
				t.Errorf("error = %v, want %s", body["error"], tt.wantError)
			}
			if tt.wantError == "access_denied" && body["error_description"] != newTokenAuth([]string{tokenA}, "", nil, nil).noOAuthMessage() {
				t.Errorf("error_description = %v", body["error_description"])
			}
		})
	}
}

// TestSchemeOnlyFromTrustedProxies: without --public-url the scheme of the
// gateway's own URLs (the metadata's resource, which a sign-in token's
// audience must match) is the connection's, or what a --trusted-proxies
// peer wrote in the header family --client-ip-header names: the
// rightmost X-Forwarded-Proto with X-Forwarded-For, the rightmost
// Forwarded element's proto= with Forwarded. Any other client's word,
// and the other family, are never read.
func TestSchemeOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	const proxy, stranger = "10.0.0.7:40000", "203.0.113.9:40000"
	xff, fwd := "X-Forwarded-For", "Forwarded"
	tests := []struct {
		name   string
		header string // --client-ip-header; "" : no trusted proxies
		req    metadataRequest
		want   string
	}{
		{"no proxies configured, client says https", "", metadataRequest{peer: stranger, forwardedProto: "https"}, "http"},
		{"no proxies configured, client says https in Forwarded", "", metadataRequest{peer: stranger, forwarded: "for=1.2.3.4;proto=https"}, "http"},
		{"no proxies configured, tls", "", metadataRequest{peer: stranger, tls: true}, "https"},
		{"untrusted peer says https", xff, metadataRequest{peer: stranger, forwardedProto: "https"}, "http"},
		{"untrusted peer says http over tls", xff, metadataRequest{peer: stranger, forwardedProto: "http", tls: true}, "https"},
		{"trusted proxy says https", xff, metadataRequest{peer: proxy, forwardedProto: "HTTPS"}, "https"},
		{"trusted proxy appends https to the client's http", xff, metadataRequest{peer: proxy, forwardedProto: "http, https"}, "https"},
		{"trusted proxy appends http to the client's https", xff, metadataRequest{peer: proxy, forwardedProto: "https,http"}, "http"},
		{"trusted proxy, odd value", xff, metadataRequest{peer: proxy, forwardedProto: "javascript"}, "http"},
		{"trusted proxy, nothing said", xff, metadataRequest{peer: proxy}, "http"},
		{"trusted proxy, X-Forwarded-For mode ignores Forwarded", xff, metadataRequest{peer: proxy, forwarded: "for=1.2.3.4;proto=https"}, "http"},
		{"trusted proxy, Forwarded proto", fwd, metadataRequest{peer: proxy, forwarded: `for=1.2.3.4;proto="https"`}, "https"},
		{"trusted proxy, rightmost Forwarded element decides", fwd, metadataRequest{peer: proxy, forwarded: "for=6.6.6.6;proto=https, for=1.2.3.4;proto=http"}, "http"},
		{"trusted proxy, rightmost Forwarded element without proto", fwd, metadataRequest{peer: proxy, forwarded: "for=6.6.6.6;proto=https, for=1.2.3.4"}, "http"},
		{"trusted proxy, Forwarded mode ignores X-Forwarded-Proto", fwd, metadataRequest{peer: proxy, forwardedProto: "https"}, "http"},
		{"untrusted peer, Forwarded proto", fwd, metadataRequest{peer: stranger, forwarded: "for=1.2.3.4;proto=https"}, "http"},
		{"trusted proxy over ipv4-mapped ipv6", xff, metadataRequest{peer: "[::ffff:10.0.0.7]:40000", forwardedProto: "https"}, "https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _ := frontDoor(t, func(o *Options) {
				o.Listen, o.AllowedHosts, o.Tokens = "127.0.0.1:8090", []string{"gw.example"}, []string{tokenA}
				if tt.header != "" {
					o.TrustedProxies, o.ClientIPHeader = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, tt.header
				}
			})
			q := tt.req
			q.path, q.host = protectedResourcePath, "gw.example"
			w := q.do(h)
			var doc map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil || w.Code != http.StatusOK {
				t.Fatalf("status %d, body %q: %v", w.Code, w.Body.String(), err)
			}
			if want := tt.want + "://gw.example/mcp"; doc["resource"] != want {
				t.Errorf("resource = %v, want %s", doc["resource"], want)
			}
		})
	}
}
