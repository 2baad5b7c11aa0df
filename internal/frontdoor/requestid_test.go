// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestRequestIDs: a plain client ID is kept and echoed, a hostile one is
// replaced, and the caller header is the front door's own.
func TestRequestIDs(t *testing.T) {
	t.Parallel()
	const token = "a-token-of-sixteen-chars"
	var seen reqctx.Info
	h, _ := frontDoor(t, func(o *Options) {
		o.Tokens = []string{token}
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen, _ = reqctx.From(r.Context()) })
	})
	tests := []struct {
		name, sent string
		keep       bool
	}{
		{"plain ID kept", "trace-42", true},
		{"no ID", "", false},
		{"too long", string(make([]byte, reqctx.MaxRequestIDLen+1)), false},
		{"header injection", "a\r\nX-Evil: 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { // not parallel: the subtests share seen
			r := frontDoorRequest{path: "/mcp", auth: "Bearer " + token}
			w := r.doWith(h, func(req *http.Request) {
				req.Header.Set(reqctx.HeaderRequestID, tt.sent)
				req.Header.Set("X-Gateway-Caller", "forged")
				req.Header.Set("X-Gateway-Trust", "forged")
			})
			got := w.Header().Get(reqctx.HeaderRequestID)
			if got == "" || seen.RequestID != got || (tt.keep && got != tt.sent) || (!tt.keep && got == tt.sent) {
				t.Fatalf("echoed %q, handler saw %q, sent %q", got, seen.RequestID, tt.sent)
			}
			if c := seen.Caller; c == "forged" || len(c) != len("token:")+64 {
				t.Fatalf("caller %q", c)
			}
			if seen.Trust != reqctx.TrustVerified {
				t.Fatalf("trust %q, want the front door's own verified", seen.Trust)
			}
		})
	}
}

// TestAcceptedTokensNeverShareACallerName: two unnamed accepted tokens
// whose SHA-256 digests share their first 32 bits get two caller names
// (the name is their rate-limit bucket; it kept only those 32 bits).
func TestAcceptedTokensNeverShareACallerName(t *testing.T) {
	t.Parallel()
	const tokenA, tokenB = "dagu_collision_key_17130", "dagu_collision_key_81596"
	if redact.Fingerprint(tokenA)[:8] != redact.Fingerprint(tokenB)[:8] {
		t.Fatal("the test tokens no longer share their first 32 bits")
	}
	var caller string
	h, _ := frontDoor(t, func(o *Options) {
		o.Tokens = []string{tokenA, tokenB}
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			info, _ := reqctx.From(r.Context())
			caller = info.Caller
		})
	})
	callers := map[string]bool{}
	for _, token := range []string{tokenA, tokenB} {
		if code := (frontDoorRequest{path: "/mcp", auth: "Bearer " + token}).do(h).Code; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if strings.Contains(caller, token) {
			t.Fatalf("the caller name %q carries the token", caller)
		}
		callers[caller] = true
	}
	if len(callers) != 2 {
		t.Errorf("two accepted tokens share a caller name (and rate-limit bucket): %v", callers)
	}
}
