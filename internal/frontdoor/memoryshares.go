// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// unverifiedShare is the caller share all unverified callers reserve
// within together.
const unverifiedShare = "unverified"

// ownerOf names the shares of the memory budget r's reservation counts
// against (membudget's shares.go): its caller's, as the trust decision
// names it (which inbound token, whose Dagu key in passthrough, which
// person for a sign-in: reqctx.Info's Caller), or that of all unverified
// callers together; and, when the gateway serves several instances, the
// instance's it addresses. The local user of a loopback gateway without
// tokens (anonymousCaller) has no caller share. Callers who share one
// inbound token share its share, so a team that wants its members kept
// apart gives each its own token.
func ownerOf(r *http.Request, instances bool) membudget.Owner {
	var o membudget.Owner
	if instances {
		o.Instance, _ = instanceOfPath(r)
	}
	info, _ := reqctx.From(r.Context())
	switch {
	case info.Trust != reqctx.TrustVerified:
		o.Caller = unverifiedShare
	case info.Caller != anonymousCaller:
		o.Caller = "caller:" + info.Caller
	}
	return o
}
