// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Messages of the passthrough front door's 401s and 413.
const (
	msgCallerKeyMissing  = "This gateway reads Dagu with each caller's own key: send Authorization: Bearer <your Dagu API key with the rest_api surface>."
	msgCallerUnverified  = "Dagu has not accepted this key: send Authorization: Bearer <your Dagu API key with the rest_api surface>."
	msgUnverifiedBody    = "Until Dagu has accepted the key this request carries, request bodies are limited to 8 KiB (enough for initialize and the reference topics)."
	msgCredentialTooLong = "The bearer credential is longer than any Dagu API key or login token (4 KiB): send Authorization: Bearer <your Dagu API key with the rest_api surface>."
)

// maxCredentialBytes bounds a passthrough bearer: longer than any Dagu key
// or login token, it is refused before it is hashed or sent to Dagu.
const maxCredentialBytes = 4 << 10

// maxUnverifiedBodyBytes bounds the body of a passthrough request whose
// key Dagu has not accepted (yet): enough for an initialize, a list or a
// reference read, the only things such a caller may do, and too little
// for a stranger's request to cost the parser anything.
const maxUnverifiedBodyBytes = 8 << 10

// Verifier makes the one trust decision of a passthrough request: what
// Dagu says of the caller's credential, and the caller's name (see
// reqctx.Info.Caller), for a request from clientAddr.
type Verifier func(ctx context.Context, credential, clientAddr string) (reqctx.Trust, string)

// verifyCaller is the passthrough front door: a request must carry a
// bearer credential (a 401 whose challenge and body say what to send
// otherwise), and before any work verify makes the request's one trust
// decision, which replaces the caller and trust withRequestID put in the
// request's context, and the credential joins it there for the REST
// client. An unverified caller's body is bounded small before anything
// parses it.
func verifyCaller(verify Verifier, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		credential, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok || len(credential) > maxCredentialBytes {
			message := msgCallerKeyMissing
			if ok {
				message = msgCredentialTooLong
			}
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, ok))
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": message})
			return
		}
		info, _ := reqctx.From(r.Context())
		info.Trust, info.Caller = verify(r.Context(), credential, clientAddr(r))
		r = r.WithContext(reqctx.WithCredential(reqctx.With(r.Context(), info), credential))
		if info.Trust == reqctx.TrustVerified {
			markVerified(r)
		} else {
			if r = boundUnverifiedBody(w, r); r == nil {
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// boundUnverifiedBody limits an unverified caller's body to
// maxUnverifiedBodyBytes before anything reads it: a declared length over
// it is refused at once with 413 (nil), a longer body fails its read there
// (http.MaxBytesReader, which the MCP handler answers with 413), and the
// memory admission reserves for that bound, not for the largest body
// (bodyBound).
func boundUnverifiedBody(w http.ResponseWriter, r *http.Request) *http.Request {
	if r.ContentLength > maxUnverifiedBodyBytes {
		writeJSONText(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "request_too_large", "message": msgUnverifiedBody})
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUnverifiedBodyBytes)
	return r.WithContext(context.WithValue(r.Context(), bodyBoundKey{}, int64(maxUnverifiedBodyBytes)))
}

// bodyBoundKey is the context key of a body bound boundUnverifiedBody set.
type bodyBoundKey struct{}

// bodyBound is the most of r's body anything will read: limit, or the
// smaller bound of an unverified caller.
func bodyBound(r *http.Request, limit int64) int64 {
	if bound, ok := r.Context().Value(bodyBoundKey{}).(int64); ok && bound < limit {
		return bound
	}
	return limit
}

// msgKeyOfSomeInstances is the 403 of a passthrough /metrics caller whose
// key only some instances accept (reqctx.TrustSomeInstances).
const msgKeyOfSomeInstances = "The key the request carried is accepted by some of the Dagu instances this gateway serves, and /metrics carries the series of every instance. Use a key every instance accepts, or scrape --metrics-listen."

// requireVerified answers 401 to a caller verifyCaller did not verify, and
// 403 to one whose key only some of the instances accept (/metrics needs
// every one, as a token must be of every instance).
func requireVerified(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, _ := reqctx.From(r.Context())
		if info.Trust == reqctx.TrustSomeInstances {
			writeJSONText(w, http.StatusForbidden, map[string]string{"error": "forbidden", "message": msgKeyOfSomeInstances})
			return
		}
		if info.Trust != reqctx.TrustVerified {
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, true))
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": msgCallerUnverified})
			return
		}
		h.ServeHTTP(w, r)
	})
}
