// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// tokenAuth checks inbound bearer tokens. It keeps only SHA-256 digests, so
// every comparison is between equal-length values and the time taken does
// not depend on where, or whether, a presented token differs from a
// configured one — not even on its length. Tokens from a file are read
// again when the file changes, so a rotated or revoked token takes effect
// without a restart. A token line "name:token" names its caller.
type tokenAuth struct {
	static []namedDigest
	file   *config.TokenFileCache
}

// namedDigest is one accepted token: its digest and the caller it names.
type namedDigest struct {
	name   string
	digest [sha256.Size]byte
}

// newTokenAuth prepares the check for the flag tokens and the token file;
// neither disables it.
func newTokenAuth(tokens []string, file string) *tokenAuth {
	a := &tokenAuth{static: digestsOf(tokens)}
	if file != "" {
		a.file = &config.TokenFileCache{Path: file}
	}
	return a
}

func digestsOf(tokens []string) []namedDigest {
	out := make([]namedDigest, 0, len(tokens))
	for _, t := range tokens {
		name, token := config.SplitNamedToken(t)
		out = append(out, namedDigest{name: name, digest: sha256.Sum256([]byte(token))})
	}
	return out
}

// enabled reports whether any token source is configured.
func (a *tokenAuth) enabled() bool { return len(a.static) > 0 || a.file != nil }

// current lists the accepted tokens now (the file's as last read).
func (a *tokenAuth) current() []namedDigest {
	if a.file == nil {
		return a.static
	}
	return append(digestsOf(a.file.Tokens()), a.static...)
}

// match reports whether an Authorization header value carries one of the
// configured tokens, and the caller name it carries ("" for an unnamed
// token). Every configured token is compared, with no early exit.
func (a *tokenAuth) match(authorization string) (string, bool) {
	token, ok := bearerToken(authorization)
	presented := sha256.Sum256([]byte(token))
	found, name := 0, ""
	for _, want := range a.current() {
		eq := subtle.ConstantTimeCompare(presented[:], want.digest[:])
		if eq == 1 {
			name = want.name
		}
		found |= eq
	}
	return name, ok && found == 1
}

// allows reports whether an Authorization header value carries one of the
// configured tokens.
func (a *tokenAuth) allows(authorization string) bool {
	_, ok := a.match(authorization)
	return ok
}

// source names the settings the operator configured the tokens with, as
// the settings table spells them: only those, so a caller's operator knows
// where to look.
func (a *tokenAuth) source() string {
	var parts []string
	if len(a.static) > 0 {
		parts = append(parts, settingName("auth-token"))
	}
	if a.file != nil {
		parts = append(parts, settingName("auth-token-file"))
	}
	return strings.Join(parts, " and ")
}

// settingName is "--flag / ENV" of a setting.
func settingName(flag string) string {
	s, _ := config.Lookup(flag)
	return "--" + s.Flag + " / " + s.Env
}

// missingMessage answers a request without a bearer token: the client is
// not configured to send one.
func (a *tokenAuth) missingMessage() string {
	return "This gateway needs a bearer token and the request carried none: configure the client to send " +
		"Authorization: Bearer <token> with a token from the gateway's operator (set on the gateway with " + a.source() + ")."
}

// rejectedMessage answers a bearer token that is not accepted: the client
// sends one, and it is the token that is wrong.
func (a *tokenAuth) rejectedMessage() string {
	msg := "The bearer token the request carried is not one this gateway accepts: it is mistyped, or the operator rotated or revoked it. " +
		"Ask the gateway's operator for a current token and send it as Authorization: Bearer <token> (tokens are set on the gateway with " + a.source() + ")"
	if a.file != nil {
		return msg + "; the token file is read again when it changes, so no restart is needed."
	}
	return msg + "."
}

// wrap requires a valid token before h runs; with no tokens configured it
// returns h unchanged. A refusal is a 401 a client can act on: the
// WWW-Authenticate challenge points at the protected-resource metadata
// (RFC 9728), which names no authorization server, and the JSON body says
// how to configure the token.
func (a *tokenAuth) wrap(h http.Handler) http.Handler {
	if !a.enabled() {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authorization := r.Header.Get("Authorization")
		if !a.allows(authorization) {
			_, sent := bearerToken(authorization)
			message := a.missingMessage()
			if sent {
				message = a.rejectedMessage()
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
