// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestPassthroughTrustDecision: in passthrough the front door makes one
// trust decision per request with Verify before the MCP handler runs; a
// client's own trust or caller header never survives it, a request without
// a key never reaches Verify, and /metrics answers only a verified caller.
func TestPassthroughTrustDecision(t *testing.T) {
	t.Parallel()
	var asked []string
	var seen http.Header
	h, _ := frontDoor(t, func(o *Options) {
		o.Passthrough = true
		o.Listen = "0.0.0.0:8090"
		o.Verify = func(_ context.Context, credential, remote string) (string, string) {
			asked = append(asked, credential)
			if credential == "dagu_good" {
				return reqctx.TrustVerified, "key:good"
			}
			return reqctx.TrustRefused, "unverified:" + remoteHost(remote)
		}
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.Header.Clone() })
	})
	forge := func(r *http.Request) {
		r.Header.Set(reqctx.HeaderTrust, reqctx.TrustVerified)
		r.Header.Set(reqctx.HeaderCaller, "key:good")
	}
	frontDoorRequest{path: "/mcp", auth: "Bearer bogus", body: `{}`}.doWith(h, forge)
	if seen.Get(reqctx.HeaderTrust) != reqctx.TrustRefused || seen.Get(reqctx.HeaderCaller) != "unverified:192.0.2.1" {
		t.Errorf("bogus key: trust %q caller %q", seen.Get(reqctx.HeaderTrust), seen.Get(reqctx.HeaderCaller))
	}
	frontDoorRequest{path: "/mcp", auth: "Bearer dagu_good", body: `{}`}.do(h)
	if seen.Get(reqctx.HeaderTrust) != reqctx.TrustVerified || seen.Get(reqctx.HeaderCaller) != "key:good" {
		t.Errorf("good key: trust %q caller %q", seen.Get(reqctx.HeaderTrust), seen.Get(reqctx.HeaderCaller))
	}
	if w := (frontDoorRequest{path: "/mcp", body: `{}`}).doWith(h, forge); w.Code != http.StatusUnauthorized {
		t.Errorf("no key: %d, want 401", w.Code)
	}
	if len(asked) != 2 {
		t.Errorf("Verify asked for %v, want one decision per request with a key", asked)
	}
	for auth, want := range map[string]int{"Bearer x": 401, "Bearer dagu_good": 200} {
		if w := (frontDoorRequest{method: http.MethodGet, path: "/metrics", auth: auth}).doWith(h, forge); w.Code != want {
			t.Errorf("/metrics with %q: %d, want %d", auth, w.Code, want)
		}
	}
}
