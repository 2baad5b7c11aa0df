// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// withRequestID gives every request an ID: the client's X-Request-Id when
// it is short and plain (see reqctx.SanitizeRequestID), else a new one. The
// ID is echoed in the response, put on the request for the log line and
// the read tool, and forwarded to Dagu. The caller and trust headers are
// the front door's alone: a client's values are dropped. An accepted token
// names the caller by its fingerprint (never the token) and is a
// verified caller; in passthrough verifyCaller decides both later.
func withRequestID(h http.Handler, auth *tokenAuth, passthrough bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := reqctx.SanitizeRequestID(r.Header.Get(reqctx.HeaderRequestID))
		if id == "" {
			id = reqctx.NewRequestID()
		}
		r.Header.Set(reqctx.HeaderRequestID, id)
		w.Header().Set(reqctx.HeaderRequestID, id)
		caller, trust := callerOf(r, auth, passthrough)
		r.Header.Set(reqctx.HeaderCaller, caller)
		r.Header.Set(reqctx.HeaderTrust, trust)
		h.ServeHTTP(w, r)
	})
}

// callerOf names the caller for logs and says whether it is verified: the
// name of a named token ("name:token" lines), "token:<fingerprint>" for
// another accepted token, "anonymous" (verified: the local user) when the
// gateway has no tokens, "unauthenticated" otherwise. In passthrough the
// caller stays unverified until verifyCaller has Dagu's verdict.
func callerOf(r *http.Request, auth *tokenAuth, passthrough bool) (caller, trust string) {
	authorization := r.Header.Get("Authorization")
	if passthrough {
		return "unverified:" + remoteHost(r.RemoteAddr), reqctx.TrustUnchecked
	}
	if !auth.enabled() {
		return "anonymous", reqctx.TrustVerified
	}
	name, accepted := auth.match(authorization)
	switch {
	case !accepted:
		return "unauthenticated", reqctx.TrustUnchecked
	case name != "":
		return name, reqctx.TrustVerified
	}
	token, _ := bearerToken(authorization)
	return "token:" + fingerprint(token), reqctx.TrustVerified
}

// fingerprint names a token without revealing it: its whole SHA-256, hex.
// The caller name is also the rate-limit bucket, and a shortened digest
// would let two accepted tokens share one.
func fingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// remoteHost is the address of a request's peer without its port.
func remoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}
