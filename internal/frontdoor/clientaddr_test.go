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
// hop of the named forwarding header that is not a trusted proxy; from
// anyone else, or without a parsable hop, from its TCP peer. What a client
// writes to the left of what the proxies appended is never believed, and
// neither is the header the operator did not name (issue 38's spoof: the
// proxy appends only Forwarded and passes the client's X-Forwarded-For on).
func TestClientAddress(t *testing.T) {
	t.Parallel()
	nets := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	xff := forwarding{proxies: nets, header: "X-Forwarded-For"}
	fwd := forwarding{proxies: nets, header: "Forwarded"}
	long := strings.Repeat("10.9.9.9, ", 10_000) + "10.1.1.1"
	for _, tt := range []struct {
		name, peer string
		header     http.Header
		via        forwarding
		want       string
	}{
		{"no trusted proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, forwarding{}, "10.0.0.2"},
		{"no trusted proxies, Forwarded", "10.0.0.2:1", http.Header{"Forwarded": {"for=198.51.100.7"}}, forwarding{}, "10.0.0.2"},
		{"untrusted peer", "203.0.113.9:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, xff, "203.0.113.9"},
		{"one proxy", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, xff, "198.51.100.7"},
		{"spoofed left of the proxy's hop", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7"}}, xff, "198.51.100.7"},
		{"two proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7, 10.0.0.3"}}, xff, "198.51.100.7"},
		{"several header lines", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4", "198.51.100.7", "10.0.0.3"}}, xff, "198.51.100.7"},
		{"IPv6 client", "[fd00::2]:1", http.Header{"X-Forwarded-For": {"2001:db8::7"}}, xff, "2001:db8::7"},
		{"garbage hop", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7, not-an-ip, 10.0.0.3"}}, xff, "10.0.0.3"},
		{"no header", "10.0.0.2:1", nil, xff, "10.0.0.2"},
		{"only proxies", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"10.0.0.4, 10.0.0.3"}}, xff, "10.0.0.4"},
		{"very long header", "10.0.0.2:1", http.Header{"X-Forwarded-For": {long}}, xff, "10.9.9.9"},
		{"Forwarded", "10.0.0.2:1", http.Header{"Forwarded": {`for=1.2.3.4, for="[2001:db8::7]:4711";proto=https, for=10.0.0.3`}}, fwd, "2001:db8::7"},
		{"Forwarded obfuscated", "10.0.0.2:1", http.Header{"Forwarded": {`for=_hidden`}}, fwd, "10.0.0.2"},
		{"Forwarded named, the client's X-Forwarded-For passed on", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4"}, "Forwarded": {"for=198.51.100.7"}}, fwd, "198.51.100.7"},
		{"Forwarded named, only X-Forwarded-For", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"1.2.3.4"}}, fwd, "10.0.0.2"},
		{"X-Forwarded-For named, the client's Forwarded passed on", "10.0.0.2:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}, "Forwarded": {"for=1.2.3.4"}}, xff, "198.51.100.7"},
		{"X-Forwarded-For named, only Forwarded", "10.0.0.2:1", http.Header{"Forwarded": {"for=1.2.3.4"}}, xff, "10.0.0.2"},
		{"mapped IPv4 peer", "[::ffff:10.0.0.2]:1", http.Header{"X-Forwarded-For": {"198.51.100.7"}}, xff, "198.51.100.7"},
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
			if got := tt.via.clientOf(r); got != tt.want {
				t.Errorf("client %q, want %q", got, tt.want)
			}
		})
	}
}

// TestForwardingIsNamed: the front door refuses trusted proxies without a
// named header, a header without trusted proxies, and a header it cannot
// read, as the configuration's check does.
func TestForwardingIsNamed(t *testing.T) {
	t.Parallel()
	nets := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, tt := range []struct {
		name    string
		proxies []netip.Prefix
		header  string
		ok      bool
	}{
		{"neither", nil, "", true},
		{"X-Forwarded-For", nets, "X-Forwarded-For", true},
		{"Forwarded in lower case", nets, "forwarded", true},
		{"proxies without a header", nets, "", false},
		{"a header without proxies", nil, "Forwarded", false},
		{"another header", nets, "X-Real-IP", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := newForwarding(tt.proxies, tt.header)
			if (err == nil) != tt.ok {
				t.Errorf("newForwarding: %v, want ok=%v", err, tt.ok)
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
		o.TrustedProxies, o.ClientIPHeader = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}, "X-Forwarded-For"
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
