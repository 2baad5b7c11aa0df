// SPDX-License-Identifier: Apache-2.0

package oidc

import "context"

// RefusalKind is why a token was not accepted, which decides the answer:
// 401 invalid_token, 403 insufficient_scope, or 503 while the issuer's
// keys cannot be had.
type RefusalKind int

// The kinds of refusal.
const (
	// Invalid: the token is not one the gateway accepts (malformed, not
	// signed by the issuer, another issuer or audience, expired, not yet
	// valid, a claim missing).
	Invalid RefusalKind = iota + 1
	// InsufficientScope: a valid token without every scope the gateway
	// requires (--oidc-scope).
	InsufficientScope
	// Unavailable: the issuer's keys were never fetched, so no token can
	// be checked now.
	Unavailable
)

// Refusal is a token the verifier did not accept. Reason says why for the
// log; it never holds the token or a claim's value beyond the issuer and
// audience the token names.
type Refusal struct {
	Kind   RefusalKind
	Reason string
}

// Error is the reason.
func (r *Refusal) Error() string { return r.Reason }

// refuse is a refusal of kind with reason.
func refuse(kind RefusalKind, reason string) *Refusal { return &Refusal{Kind: kind, Reason: reason} }

// outcome is what the key set learned during one check that go-oidc's
// verifier does not pass on as a value (it formats the key set's error as
// text): whether the keys were missing. It rides in the check's context,
// which go-oidc hands the key set for its configuration.
type outcome struct{ unavailable bool }

type outcomeKey struct{}

// withOutcome returns ctx carrying a fresh outcome.
func withOutcome(ctx context.Context) (context.Context, *outcome) {
	o := &outcome{}
	return context.WithValue(ctx, outcomeKey{}, o), o
}

// noteUnavailable records in the check's outcome that there were no keys.
func noteUnavailable(ctx context.Context) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		o.unavailable = true
	}
}
