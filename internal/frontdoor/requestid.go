// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// withRequestID gives every request an ID: the client's X-Request-Id when
// it is short and plain (see reqctx.SanitizeRequestID), else a new one. The
// ID is echoed in the response, put on the request for the log line and
// the read tool, and forwarded to Dagu. The caller and trust headers are
// the front door's alone: a client's values are dropped. Outside
// passthrough this is where the request's inbound token is checked, once:
// the verdict goes into the request's context for auth.wrap and /readyz.
// An accepted token names the caller by its fingerprint (never the token)
// and is a verified caller; in passthrough verifyCaller decides both
// later.
func withRequestID(h http.Handler, auth *tokenAuth, passthrough bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := reqctx.SanitizeRequestID(r.Header.Get(reqctx.HeaderRequestID))
		if id == "" {
			id = reqctx.NewRequestID()
		}
		r.Header.Set(reqctx.HeaderRequestID, id)
		w.Header().Set(reqctx.HeaderRequestID, id)
		caller, trust := "unverified:"+remoteHost(r.RemoteAddr), reqctx.TrustUnchecked
		if !passthrough {
			v := auth.checkToken(r.Header.Get("Authorization"))
			r = withVerdict(r, v)
			caller, trust = v.caller, v.trust()
		}
		r.Header.Set(reqctx.HeaderCaller, caller)
		r.Header.Set(reqctx.HeaderTrust, trust)
		h.ServeHTTP(w, r)
	})
}

// remoteHost is the address of a request's peer without its port.
func remoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}
