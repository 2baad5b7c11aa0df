// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// withRequestID gives every request an ID: the client's X-Request-Id when
// it is short and plain (see reqctx.SanitizeRequestID), else a new one. The
// ID is echoed in the response, put on the request for the log line and
// the read tool, and forwarded to Dagu. The caller header is the front
// door's alone: a client's value is dropped, and an accepted token names
// the caller by a short fingerprint (never the token).
func withRequestID(h http.Handler, auth *tokenAuth, passthrough bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := reqctx.SanitizeRequestID(r.Header.Get(reqctx.HeaderRequestID))
		if id == "" {
			id = reqctx.NewRequestID()
		}
		r.Header.Set(reqctx.HeaderRequestID, id)
		w.Header().Set(reqctx.HeaderRequestID, id)
		r.Header.Set(reqctx.HeaderCaller, callerOf(r, auth, passthrough))
		h.ServeHTTP(w, r)
	})
}

// callerOf names the caller for logs: the name of a named token
// ("name:token" lines), "token:<fingerprint>" for another accepted token, "key:<fingerprint>" for a caller's own Dagu key
// in passthrough mode, "anonymous" when the gateway has no tokens.
func callerOf(r *http.Request, auth *tokenAuth, passthrough bool) string {
	authorization := r.Header.Get("Authorization")
	token, ok := bearerToken(authorization)
	if passthrough {
		if ok {
			return "key:" + shortFingerprint(token)
		}
		return "unauthenticated"
	}
	if !auth.enabled() {
		return "anonymous"
	}
	name, accepted := auth.match(authorization)
	switch {
	case !accepted:
		return "unauthenticated"
	case name != "":
		return name
	}
	return "token:" + shortFingerprint(token)
}

func shortFingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:4])
}

// requireCallerKey is the passthrough front door: a request to /mcp must
// carry a bearer credential (Dagu decides whether it is valid); without one
// it gets a 401 whose challenge and body say what to send.
func requireCallerKey(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := bearerToken(r.Header.Get("Authorization")); !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dagu"`)
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized",
				"message": "This gateway reads Dagu with each caller's own key: send Authorization: Bearer <your Dagu API key with the rest_api surface>."})
			return
		}
		h.ServeHTTP(w, r)
	})
}
