// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestClientAddress: a request from a trusted proxy is from the rightmost
// forwarded hop that is not a trusted proxy; from anyone else, or without
// a parsable header, from its TCP peer. What a client writes to the left of
// what the proxies appended is never believed.
func TestClientAddress(t *testing.T) {
	t.Parallel()
	proxies := trustedProxies{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	long := strings.Repeat("10.9.9.9, ", 10_000) + "10.1.1.1"
	for _, tt := range []struct {
		name, peer string
		header     http.Header
		proxies    trustedProxies
		want       string
	}{
		{"no trusted proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, nil, "10.0.0.2"},
		{"untrusted peer", "203.0.113.9:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, proxies, "203.0.113.9"},
		{"one proxy", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, proxies, "198.51.100.7"},
		{"spoofed left of the proxy's hop", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7"}}, proxies, "198.51.100.7"},
		{"two proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7, 10.0.0.3"}}, proxies, "198.51.100.7"},
		{"several header lines", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4", "198.51.100.7", "10.0.0.3"}}, proxies, "198.51.100.7"},
		{"IPv6 client", "[fd00::2]:1", http.Header{"X-Forwarded-For": {"2001:db8::7"}}, proxies, "2001:db8::7"},
		{"garbage hop", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7, not-an-ip, 10.0.0.3"}}, proxies, "10.0.0.3"},
		{"no header", "10.0.0.2:1", nil, proxies, "10.0.0.2"},
		{"only proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"10.0.0.4, 10.0.0.3"}}, proxies, "10.0.0.4"},
		{"very long header", "10.0.0.2:1", http.Header{"X-Forwarded-For": {long}}, proxies, "10.9.9.9"},
		{"Forwarded", "10.0.0.2:1", http.Header{"Forwarded": {`for=1.2.3.4, for="[2001:db8::7]:4711";proto=https, for=10.0.0.3`}}, proxies, "2001:db8::7"},
		{"Forwarded obfuscated", "10.0.0.2:1", http.Header{"Forwarded": {`for=_hidden`}}, proxies, "10.0.0.2"},
		{"X-Forwarded-For wins", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}, "Forwarded": {"for=1.2.3.4"}}, proxies, "198.51.100.7"},
		{"mapped IPv4 peer", "[::ffff:10.0.0.2]:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, proxies, "198.51.100.7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			r.RemoteAddr = tt.peer
			for k, vs := range tt.header {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			if got := tt.proxies.clientOf(r); got != tt.want {
				t.Errorf("client %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTrustedProxiesNameTheCaller: behind a trusted proxy, the passthrough
// decision and an unverified caller's name use the forwarded client.
func TestTrustedProxiesNameTheCaller(t *testing.T) {
	t.Parallel()
	var asked string
	var seen reqctx.Info
	h, _ := frontDoor(t, func(o *Options) {
		o.Passthrough = true
		o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}
		o.Verify = func(_ context.Context, _ string, client string) (reqctx.Trust, string) {
			asked = client
			return reqctx.TrustUnchecked, "unverified:" + client
		}
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen, _ = reqctx.From(r.Context()) })
	})
	frontDoorRequest{path: "/mcp", auth: "Bearer x", body: ping}.doWith(h, func(r *http.Request) {
		r.Header.Set("X-Forwarded-For", "203.0.113.50")
	})
	if asked != "203.0.113.50" || seen.Caller != "unverified:203.0.113.50" {
		t.Errorf("Verify asked for %q, caller %q; want the forwarded client", asked, seen.Caller)
	}
}
