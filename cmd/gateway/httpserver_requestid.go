package main

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
func withRequestID(h http.Handler, auth *tokenAuth) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := reqctx.SanitizeRequestID(r.Header.Get(reqctx.HeaderRequestID))
		if id == "" {
			id = reqctx.NewRequestID()
		}
		r.Header.Set(reqctx.HeaderRequestID, id)
		w.Header().Set(reqctx.HeaderRequestID, id)
		r.Header.Set(reqctx.HeaderCaller, callerOf(r, auth))
		h.ServeHTTP(w, r)
	})
}

// callerOf names the caller for logs: "token:<fingerprint>" for a request
// with an accepted token, "anonymous" when the gateway has no tokens.
func callerOf(r *http.Request, auth *tokenAuth) string {
	if len(auth.digests) == 0 {
		return "anonymous"
	}
	authorization := r.Header.Get("Authorization")
	token, ok := bearerToken(authorization)
	if !ok || !auth.allows(authorization) {
		return "unauthenticated"
	}
	sum := sha256.Sum256([]byte(token))
	return "token:" + hex.EncodeToString(sum[:4])
}
