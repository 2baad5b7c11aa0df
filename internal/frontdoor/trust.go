// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Messages of the passthrough front door's 401s.
const (
	msgCallerKeyMissing = "This gateway reads Dagu with each caller's own key: send Authorization: Bearer <your Dagu API key with the rest_api surface>."
	msgCallerUnverified = "Dagu has not accepted this key: send Authorization: Bearer <your Dagu API key with the rest_api surface>."
)

// verifyCaller is the passthrough front door: a request must carry a
// bearer credential (a 401 whose challenge and body say what to send
// otherwise), and before any work verify makes the request's one trust
// decision, which replaces the caller and trust headers withRequestID set.
func verifyCaller(verify func(ctx context.Context, credential, remoteAddr string) (trust, caller string), h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		credential, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, false))
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": msgCallerKeyMissing})
			return
		}
		trust, caller := verify(r.Context(), credential, r.RemoteAddr)
		r.Header.Set(reqctx.HeaderTrust, trust)
		r.Header.Set(reqctx.HeaderCaller, caller)
		h.ServeHTTP(w, r)
	})
}

// requireVerified answers 401 to a caller verifyCaller did not verify.
func requireVerified(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(reqctx.HeaderTrust) != reqctx.TrustVerified {
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, true))
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": msgCallerUnverified})
			return
		}
		h.ServeHTTP(w, r)
	})
}
