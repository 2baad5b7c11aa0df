// SPDX-License-Identifier: Apache-2.0

// Package reqctx carries what one request is about through the layers that
// serve it: its ID, who made it, whether it is trusted, and how many
// upstream calls it cost. It knows nothing of the contract or of REST; the
// front door fills it from the HTTP request, the read tool logs it and
// applies its trust and limits, the REST client forwards the ID to Dagu
// and counts its calls.
package reqctx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"sync/atomic"
)

// HeaderRequestID is the HTTP header of a request's ID: honoured from the
// client (bounded and sanitized), echoed in the response and forwarded to
// Dagu.
const HeaderRequestID = "X-Request-Id"

// Trust is the front door's trust decision of a request. Nothing but the
// front door decides it, and it travels only in the request's context
// (With), never in a header a client could send.
type Trust string

// Trust decisions.
const (
	// TrustVerified: the caller proved who it is (an inbound token, or a
	// Dagu key Dagu accepted).
	TrustVerified Trust = "verified"
	// TrustRefused: Dagu refused the caller's key.
	TrustRefused Trust = "refused"
	// TrustLacksSurface: Dagu knows the key, but it lacks the rest_api
	// surface.
	TrustLacksSurface Trust = "lacks-surface"
	// TrustUnchecked: no key, or no verdict yet (Dagu could not say, or
	// the lane of unknown keys was full).
	TrustUnchecked Trust = "unchecked"
	// TrustSomeInstances: of the several Dagu servers a request needs
	// (passthrough /metrics, which carries every instance's series), some
	// accepted the caller's key and some did not. It is not verified; the
	// front door answers it 403, as it answers a token of some instances.
	TrustSomeInstances Trust = "some-instances"
)

// MaxRequestIDLen bounds a request ID taken from a client.
const MaxRequestIDLen = 128

// Info is one request's identity: the one typed value the front door
// decides (request ID, caller, trust) and hands to the tool and the REST
// client through the request's context.
type Info struct {
	RequestID string
	// Caller names the caller for logs and is the key of its per-caller
	// limits: who the credential belongs to when that is known (an
	// inbound token's name, the identity Dagu gives a key), else the
	// credential's fingerprint, else (unverified) its address.
	Caller string
	// Trust is the front door's trust decision; empty outside HTTP
	// (stdio: the local user).
	Trust Trust
	// Person is who signed in with the OpenID provider (an access token
	// the front door verified); nil for every other caller.
	Person *Person
	// Rule names the access policy rule that admitted Person ("" for
	// every other caller).
	Rule string
	// Targets are the dagu_read targets Rule allows; nil: every target.
	Targets []string
	calls   *atomic.Int64
}

// Person is who an access token says the caller is. It never holds the
// token.
type Person struct {
	// Issuer and Subject name the person for good (issuer and sub).
	Issuer, Subject string
	// Email is the token's email, when it has one not marked unverified.
	Email string
}

// AllowsTarget reports whether the request may read the dagu_read target:
// every target unless an access rule limits them.
func (i Info) AllowsTarget(target string) bool {
	return i.Targets == nil || slices.Contains(i.Targets, target)
}

type key struct{}

// With returns ctx carrying info and a fresh upstream call counter.
func With(ctx context.Context, info Info) context.Context {
	info.calls = new(atomic.Int64)
	return context.WithValue(ctx, key{}, info)
}

// From returns the request's info; ok is false outside a request.
func From(ctx context.Context) (Info, bool) {
	info, ok := ctx.Value(key{}).(Info)
	return info, ok
}

// CountUpstream records one upstream call of the request, if any.
func CountUpstream(ctx context.Context) {
	if info, ok := From(ctx); ok && info.calls != nil {
		info.calls.Add(1)
	}
}

// UpstreamCalls reports how many upstream calls the request made so far.
func (i Info) UpstreamCalls() int64 {
	if i.calls == nil {
		return 0
	}
	return i.calls.Load()
}

// SanitizeRequestID keeps a client's request ID when it is short and made
// of letters, digits and -_.:; otherwise it returns "".
func SanitizeRequestID(id string) string {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > MaxRequestIDLen {
		return ""
	}
	for _, r := range id {
		ok := r == '-' || r == '_' || r == '.' || r == ':' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return ""
		}
	}
	return id
}

// NewRequestID makes a random request ID (16 hex digits).
func NewRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type credentialKey struct{}

// WithCredential returns ctx carrying the caller's own Dagu credential
// (passthrough mode). It is kept apart from Info so that nothing that logs
// a request's identity can reach it.
func WithCredential(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, credentialKey{}, key)
}

// Credential returns the caller's Dagu credential, if the request has one.
func Credential(ctx context.Context) (string, bool) {
	key, ok := ctx.Value(credentialKey{}).(string)
	return key, ok && key != ""
}
