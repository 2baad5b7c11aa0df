// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http/httptest"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestOwnerNamesTheCallerAndTheInstance: a request's reservation counts
// against its verified caller's share (all unverified callers share one,
// the local user of a loopback gateway has none) and, when instances are
// served, against the share of the instance its path addresses.
func TestOwnerNamesTheCallerAndTheInstance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		path      string
		info      reqctx.Info
		instances bool
		want      membudget.Owner
	}{
		{"token", "/mcp", reqctx.Info{Caller: "ops", Trust: reqctx.TrustVerified}, false, membudget.Owner{Caller: "caller:ops"}},
		{"sign-in", "/mcp", reqctx.Info{Caller: "https://issuer#sub", Trust: reqctx.TrustVerified}, false, membudget.Owner{Caller: "caller:https://issuer#sub"}},
		{"refused key", "/mcp", reqctx.Info{Caller: "unverified:192.0.2.1", Trust: reqctx.TrustRefused}, false, membudget.Owner{Caller: unverifiedShare}},
		{"unchecked", "/mcp", reqctx.Info{Caller: "key:abc", Trust: reqctx.TrustUnchecked}, false, membudget.Owner{Caller: unverifiedShare}},
		{"local user", "/mcp", reqctx.Info{Caller: anonymousCaller, Trust: reqctx.TrustVerified}, false, membudget.Owner{}},
		{"instance", "/dagu/prod/mcp", reqctx.Info{Caller: "ops", Trust: reqctx.TrustVerified}, true, membudget.Owner{Caller: "caller:ops", Instance: "prod"}},
		{"default instance", "/mcp", reqctx.Info{Caller: "ops", Trust: reqctx.TrustVerified}, true, membudget.Owner{Caller: "caller:ops", Instance: defaultInstance}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("POST", tt.path, nil)
			r = r.WithContext(reqctx.With(r.Context(), tt.info))
			if got := ownerOf(r, tt.instances); got != tt.want {
				t.Fatalf("owner = %+v, want %+v", got, tt.want)
			}
		})
	}
}
