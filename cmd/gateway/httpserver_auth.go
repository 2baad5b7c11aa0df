package main

import (
	"crypto/sha256"
	"crypto/subtle"
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

// wrap requires a valid token before h runs; with no tokens configured it
// returns h unchanged.
func (a *tokenAuth) wrap(h http.Handler) http.Handler {
	if len(a.digests) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.allows(r.Header.Get("Authorization")) {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		h.ServeHTTP(w, r)
	})
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
