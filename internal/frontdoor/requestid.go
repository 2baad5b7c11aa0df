// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// withRequestID gives every request an ID: the client's X-Request-Id when
// it is short and plain (see reqctx.SanitizeRequestID), else a new one. The
// ID is echoed in the response and put, with the caller and the trust
// decision, into the request's context (reqctx.With): the one value the
// MCP handler hands the tool and the REST client. Outside passthrough
// this is where the request's inbound token is checked, once: an accepted
// token names the caller (its name, or its fingerprint, never the token)
// and is a verified caller; in passthrough verifyCaller decides both
// later. A sign-in token (SignIn) names the person and the access rule
// that admitted them, with the rule's targets and its Dagu key for the
// instance addressed (reqctx.WithCredential). The client's address is the
// peer's, or the one a trusted proxy forwarded (see
// forwarding.clientOf).
func withRequestID(h http.Handler, auth *tokenAuth, passthrough bool, proxies forwarding) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := reqctx.SanitizeRequestID(r.Header.Get(reqctx.HeaderRequestID))
		if id == "" {
			id = reqctx.NewRequestID()
		}
		r.Header.Set(reqctx.HeaderRequestID, id)
		w.Header().Set(reqctx.HeaderRequestID, id)
		client := proxies.clientOf(r)
		r = withClient(r, client)
		info := reqctx.Info{RequestID: id, Caller: "unverified:" + client, Trust: reqctx.TrustUnchecked}
		if !passthrough {
			v := auth.checkRequest(r)
			r = withVerdict(r, v)
			info.Caller, info.Trust = v.caller, v.trust()
			info.Person = v.person
			if v.accepted && v.person != nil {
				info.Rule, info.Targets = v.signIn.Rule, v.signIn.Targets
				if v.signIn.Credential != "" {
					r = r.WithContext(reqctx.WithCredential(r.Context(), v.signIn.Credential))
				}
			}
		}
		h.ServeHTTP(w, r.WithContext(reqctx.With(r.Context(), info)))
	})
}

// remoteHost is the address of a request's peer without its port.
func remoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}
