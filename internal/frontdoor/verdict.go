// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"crypto/sha256"
	"net/http"
	"slices"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// authVerdict is the one check of a request's inbound bearer token, made
// once by withRequestID and carried in the request's context to every
// later step that needs it (the token check, /readyz's detail). It holds
// what was decided and who the caller is, never the token.
type authVerdict struct {
	// accepted: the token is one the gateway accepts now, or the gateway
	// has no tokens.
	accepted bool
	// sent: the request carried a bearer token at all.
	sent bool
	// caller names the caller for logs and per-caller limits.
	caller string
	// instances are the instances the token is for; nil: every one.
	instances instanceScope
	// signIn is SignIn's decision of a bearer no static token matched, at
	// an MCP endpoint; nil otherwise.
	signIn *Admission
	// person is who an admitted sign-in token names; nil otherwise.
	person *reqctx.Person
	// fromFile: the token is one of the token file's, which may drop it
	// while the request is in flight (revocation.go); digest is its
	// SHA-256.
	fromFile bool
	digest   [sha256.Size]byte
}

// instanceScope is the instances a caller may use; nil: every one.
type instanceScope []string

// allows reports whether the scope takes the named instance.
func (s instanceScope) allows(name string) bool { return s == nil || slices.Contains(s, name) }

// verdictKey is the context key of a request's authVerdict.
type verdictKey struct{}

// checkToken makes the verdict of an Authorization header value: the one
// token check of a request.
func (a *tokenAuth) checkToken(authorization string) authVerdict {
	if !a.enabled() {
		return authVerdict{accepted: true, caller: anonymousCaller}
	}
	token, sent := bearerToken(authorization)
	if !sent {
		return authVerdict{caller: "unauthenticated"}
	}
	// The token is hashed once: its digest finds it and names the caller.
	presented := sha256.Sum256([]byte(token))
	entry, fromFile, accepted := a.match(presented)
	if !accepted {
		return authVerdict{sent: true, caller: "unauthenticated"}
	}
	v := authVerdict{accepted: true, sent: true, caller: entry.Name, instances: entry.Instances, fromFile: fromFile, digest: presented}
	if entry.Name == "" {
		v.caller = "token:" + redact.FingerprintOfDigest(presented)
	}
	return v
}

// checkRequest makes the one token check of a request: a static token,
// else at an MCP endpoint a sign-in token (SignIn).
func (a *tokenAuth) checkRequest(r *http.Request) authVerdict {
	v := a.checkToken(r.Header.Get("Authorization"))
	if v.accepted || !v.sent || a.signIn == nil {
		return v
	}
	token, _ := bearerToken(r.Header.Get("Authorization"))
	return a.admit(r, token, v)
}

// withVerdict returns r carrying v.
func withVerdict(r *http.Request, v authVerdict) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), verdictKey{}, v))
}

// verdictOf is the verdict r carries, made now when it carries none (a
// handler wrapped without withRequestID in front).
func (a *tokenAuth) verdictOf(r *http.Request) authVerdict {
	if v, ok := r.Context().Value(verdictKey{}).(authVerdict); ok {
		return v
	}
	return a.checkRequest(r)
}

// trust is the trust decision of the verdict.
func (v authVerdict) trust() reqctx.Trust {
	if v.accepted {
		return reqctx.TrustVerified
	}
	return reqctx.TrustUnchecked
}

// anonymousCaller names the local user of a loopback gateway without
// inbound tokens.
const anonymousCaller = "anonymous"
