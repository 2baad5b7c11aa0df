// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// tokenAuth checks inbound bearer tokens. It keeps only SHA-256 digests
// and finds a presented token by its digest in a map: the time taken does
// not depend on how many tokens there are, nor on where a presented token
// differs from a configured one (only on its digest, which the caller
// cannot steer). Tokens from a file are read again when the file changes
// (config.TokenFileCache), so a rotated or revoked token takes effect
// without a restart, for its requests in flight too (revocation.go). A token line "name:token" names its caller.
type tokenAuth struct {
	static map[[sha256.Size]byte]config.TokenEntry
	file   tokenMatcher // nil without a token file
	signIn *SignIn      // nil without sign-in
	// revoked ends the requests in flight of a file token the file drops.
	revoked *revocation
}

// tokenMatcher finds a token by its SHA-256 digest (config.TokenFileCache).
type tokenMatcher interface {
	Lookup(digest [sha256.Size]byte) (config.TokenEntry, bool)
}

// newTokenAuth prepares the check for the flag tokens and the token file;
// neither disables it. The token file's reload problems go to logger; now
// (nil: time.Now) is the clock of its change checks.
func newTokenAuth(tokens []string, file string, logger *slog.Logger, now func() time.Time) *tokenAuth {
	a := &tokenAuth{static: map[[sha256.Size]byte]config.TokenEntry{}}
	for _, t := range tokens {
		name, token := config.SplitNamedToken(t)
		scope, _ := config.TokenInstances(t) // config.Config.Validate refused a malformed list
		a.static[sha256.Sum256([]byte(token))] = config.TokenEntry{Name: name, Instances: scope}
	}
	if file != "" {
		a.file = &config.TokenFileCache{Path: file, Logger: logger, Now: now}
		a.revoked = newRevocation(a.file, config.DefaultStatInterval)
	}
	return a
}

// enabled reports whether any token source is configured.
func (a *tokenAuth) enabled() bool { return a.hasStatic() || a.signIn != nil }

// hasStatic reports whether static tokens are configured.
func (a *tokenAuth) hasStatic() bool { return len(a.static) > 0 || a.file != nil }

// match reports whether presented, the SHA-256 of a bearer token, is that
// of one of the configured tokens, and its entry: the caller name it
// carries ("" for an unnamed token) and the instances it is for;
// fromFile says it is the token file's.
func (a *tokenAuth) match(presented [sha256.Size]byte) (_ config.TokenEntry, fromFile, ok bool) {
	if e, found := a.static[presented]; found {
		return e, false, true
	}
	if a.file != nil {
		e, found := a.file.Lookup(presented)
		return e, found, found
	}
	return config.TokenEntry{}, false, false
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
// not configured to send one (or, with sign-in, has not signed in).
func (a *tokenAuth) missingMessage() string {
	static := "configure the client to send Authorization: Bearer <token> with a token from the gateway's operator (set on the gateway with " + a.source() + ")"
	switch {
	case a.signIn == nil:
		return "This gateway needs a bearer token and the request carried none: " + static + "."
	case a.hasStatic():
		return "This gateway needs a bearer token and the request carried none: sign in with " + a.signIn.Issuer + signInHow + ", or " + static + "."
	}
	return "This gateway needs a bearer token and the request carried none: sign in with " + a.signIn.Issuer + signInHow + "."
}

// signInHow says how a person signs in with the provider.
const signInHow = " (an MCP client that follows the MCP authorization spec does it, starting from the gateway's protected-resource metadata)"

// rejectedMessage answers a bearer token that is not accepted: the client
// sends one, and it is the token that is wrong.
func (a *tokenAuth) rejectedMessage() string {
	if !a.hasStatic() {
		return "The bearer token the request carried is not accepted here: sign-in tokens are for the MCP endpoints, and this gateway has no static tokens (scrape /metrics on --metrics-listen)."
	}
	msg := "The bearer token the request carried is not one this gateway accepts: it is mistyped, or the operator rotated or revoked it. " +
		"Ask the gateway's operator for a current token and send it as Authorization: Bearer <token> (tokens are set on the gateway with " + a.source() + ")"
	if a.file != nil {
		return msg + "; the token file is read again when it changes, so no restart is needed."
	}
	return msg + "."
}

// wrap requires a valid token before h runs, by the verdict withRequestID
// made (see verdictOf); with no tokens configured it returns h unchanged. A refusal is a 401 a client can act on: the
// WWW-Authenticate challenge points at the protected-resource metadata
// (RFC 9728), which names no authorization server, and the JSON body says
// how to configure the token.
func (a *tokenAuth) wrap(h http.Handler) http.Handler {
	if !a.enabled() {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := a.verdictOf(r)
		if !v.accepted {
			if a.refuseSignIn(w, r, v) {
				return
			}
			a.refuse(w, r, v.sent)
			return
		}
		if v.fromFile && a.revoked != nil {
			a.serveRevocable(w, r, v, h)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// refuse answers 401 to a request whose token is missing (sent false) or
// not accepted.
func (a *tokenAuth) refuse(w http.ResponseWriter, r *http.Request, sent bool) {
	message := a.missingMessage()
	if sent {
		message = a.rejectedMessage()
	}
	w.Header().Set("WWW-Authenticate", a.refusalChallenge(r, sent))
	writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "message": message})
}

// refusalChallenge is the challenge of a 401 that is no sign-in refusal:
// with sign-in, the scopes a token needs too.
func (a *tokenAuth) refusalChallenge(r *http.Request, sent bool) string {
	if a.signIn == nil {
		return bearerChallenge(r, sent)
	}
	extra := ""
	if sent {
		extra = `error="invalid_token"`
	}
	return a.challenge(r, extra)
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
	closeAfterError(w, status)
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}

// closeAfterError ends the connection after an error answer. The front
// door's refusals come before the request's body is read, and net/http
// otherwise reads what is left of a small body before it sends the answer
// and again before it lets the connection go, so a declared body that
// never came kept the connection serving until the read timeout: about
// 2,000 of them (made-up keys, or none) kept every new connection out of
// a server bounded to that many (connGuard). The read deadline ends that
// wait at once; the answer's write is not affected.
func closeAfterError(w http.ResponseWriter, status int) {
	if status >= http.StatusBadRequest {
		w.Header().Set("Connection", "close")
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
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
