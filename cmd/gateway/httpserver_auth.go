// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"
)

// tokenAuth checks inbound bearer tokens. It keeps only SHA-256 digests, so
// every comparison is between equal-length values and the time taken does
// not depend on where, or whether, a presented token differs from a
// configured one — not even on its length.
type tokenAuth struct {
	digests [][sha256.Size]byte
}

// newTokenAuth prepares the check for tokens; no tokens disables it.
func newTokenAuth(tokens []string) *tokenAuth {
	a := &tokenAuth{}
	for _, t := range tokens {
		a.digests = append(a.digests, sha256.Sum256([]byte(t)))
	}
	return a
}

// allows reports whether an Authorization header value carries one of the
// configured tokens. Every configured token is compared, with no early exit.
func (a *tokenAuth) allows(authorization string) bool {
	token, ok := bearerToken(authorization)
	presented := sha256.Sum256([]byte(token))
	match := 0
	for _, want := range a.digests {
		match |= subtle.ConstantTimeCompare(presented[:], want[:])
	}
	return ok && match == 1
}

// Messages of a 401, saying how to get in rather than only that the caller
// may not.
const (
	msgTokenMissing  = "This gateway needs a bearer token: send Authorization: Bearer <token> (the operator sets it with --auth-token or GATEWAY_AUTH_TOKENS)."
	msgTokenRejected = "The bearer token was not accepted: send Authorization: Bearer <token> with a token the operator configured (--auth-token, GATEWAY_AUTH_TOKENS or --auth-token-file)."
)

// wrap requires a valid token before h runs; with no tokens configured it
// returns h unchanged. A refusal is a 401 a client can act on: the
// WWW-Authenticate challenge points at the protected-resource metadata
// (RFC 9728), which names no authorization server, and the JSON body says
// how to configure the token.
func (a *tokenAuth) wrap(h http.Handler) http.Handler {
	if len(a.digests) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authorization := r.Header.Get("Authorization")
		if !a.allows(authorization) {
			_, sent := bearerToken(authorization)
			message := msgTokenMissing
			if sent {
				message = msgTokenRejected
			}
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, sent))
			writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": message})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// writeJSONText writes v like writeJSON but without HTML escaping: clients
// show these bodies to people as they are, and "<token>" should not read
// "\u003ctoken\u003e".
func writeJSONText(w http.ResponseWriter, status int, v any) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		writeJSON(w, status, v)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// header value. The scheme is case-insensitive (RFC 9110).
func bearerToken(authorization string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(authorization), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
