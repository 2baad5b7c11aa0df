// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestRequestIDs: a plain client ID is kept and echoed, a hostile one is
// replaced, and the caller header is the front door's own.
func TestRequestIDs(t *testing.T) {
	t.Parallel()
	const token = "a-token-of-sixteen-chars"
	var seen http.Header
	h, _ := frontDoor(t, func(o *Options) {
		o.Tokens = []string{token}
		o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.Header.Clone() })
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
				req.Header.Set(reqctx.HeaderCaller, "forged")
				req.Header.Set(reqctx.HeaderTrust, "forged")
			})
			got := w.Header().Get(reqctx.HeaderRequestID)
			if got == "" || seen.Get(reqctx.HeaderRequestID) != got || (tt.keep && got != tt.sent) || (!tt.keep && got == tt.sent) {
				t.Fatalf("echoed %q, handler saw %q, sent %q", got, seen.Get(reqctx.HeaderRequestID), tt.sent)
			}
			if c := seen.Get(reqctx.HeaderCaller); c == "forged" || len(c) != len("token:")+8 {
				t.Fatalf("caller %q", c)
			}
			if trust := seen.Get(reqctx.HeaderTrust); trust != reqctx.TrustVerified {
				t.Fatalf("trust %q, want the front door's own verified", trust)
			}
		})
	}
}
