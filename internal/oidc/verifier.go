// SPDX-License-Identifier: Apache-2.0

// Package oidc makes the gateway an OAuth 2.0 resource server for one
// OpenID provider (--oidc-issuer): it verifies the JWT access tokens the
// provider issues, failing closed, and says who the caller is (Identity).
// It issues no tokens and runs no sign-in; MCP clients sign in with the
// provider themselves (the MCP authorization spec).
//
// Signatures are checked by go-oidc's verifier over go-jose, against the
// issuer's keys (keySet: found through discovery, fetched within a time
// and byte bound, at most one fetch in flight and one started per
// DefaultMinRefresh for unknown key IDs, kept while the issuer is down).
// The claims are then checked here: the issuer exactly, the audience (the
// endpoint's resource URL or a configured audience), exp and nbf within
// ClockSkew, a subject, and the required scopes.
package oidc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// Verification bounds.
const (
	// MaxTokenBytes bounds a bearer token before anything parses it: an
	// access token with a few hundred groups fits; a larger one is refused.
	MaxTokenBytes = 16 << 10
	// ClockSkew is how far exp and nbf may be off the gateway's clock.
	ClockSkew = 30 * time.Second
	// DefaultRefreshInterval is how often the keys are fetched again
	// while nothing asks for a new one, so a key the issuer withdrew
	// stops verifying.
	DefaultRefreshInterval = 15 * time.Minute
	// retryInterval is how often a verifier that has no keys yet tries
	// again.
	retryInterval = 10 * time.Second
)

// Options configures a Verifier.
type Options struct {
	// Issuer is the OpenID provider's issuer URL, exactly as it writes it
	// in its tokens (config.CheckIssuerURL).
	Issuer string
	// Audiences are accepted in aud besides the resource URL of the
	// endpoint a token is presented at (--oidc-audience, for issuers that
	// ignore RFC 8707 resource indicators).
	Audiences []string
	// GroupsClaim names the claim of the caller's groups (default
	// "groups"); a dotted name walks into nested objects.
	GroupsClaim string
	// Scopes must all be in a token (--oidc-scope); none: no scope is
	// required.
	Scopes []string
	// Client's transport fetches the discovery document and the keys (nil:
	// http.DefaultTransport); the fetches' own bounds apply.
	Client *http.Client
	// FetchTimeout and FetchMaxBytes bound one fetch (defaults
	// DefaultFetchTimeout, DefaultFetchMaxBytes).
	FetchTimeout  time.Duration
	FetchMaxBytes int64
	// MinRefresh is the least time between fetches that unknown key IDs
	// start (default DefaultMinRefresh).
	MinRefresh time.Duration
	// RefreshInterval is how often Run fetches the keys again (default
	// DefaultRefreshInterval).
	RefreshInterval time.Duration
	// Logger receives the fetches' problems and recoveries; nil discards.
	Logger *slog.Logger
	// Registerer receives the fetch counters; nil registers nothing.
	Registerer prometheus.Registerer
	// Now replaces the clock (tests).
	Now func() time.Time
}

// Verifier checks access tokens of one issuer. It is safe for concurrent
// use.
type Verifier struct {
	opts    Options
	keys    *keySet
	tokens  *gooidc.IDTokenVerifier
	refresh time.Duration
}

// New builds the verifier; it fetches nothing until a token or Run needs
// the keys.
func New(o Options) (*Verifier, error) {
	if err := config.CheckIssuerURL("issuer", o.Issuer); err != nil {
		return nil, err
	}
	if o.GroupsClaim == "" {
		o.GroupsClaim = "groups"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m, err := newMetrics(o.Registerer)
	if err != nil {
		return nil, err
	}
	keys := &keySet{issuer: o.Issuer, now: o.Now, log: log, metrics: m,
		fetch:      newFetcher(o.Client, orDefault(o.FetchTimeout, DefaultFetchTimeout), orDefault(o.FetchMaxBytes, DefaultFetchMaxBytes)),
		minRefresh: orDefault(o.MinRefresh, DefaultMinRefresh)}
	tokens := gooidc.NewVerifier(o.Issuer, keys, &gooidc.Config{
		SupportedSigningAlgs: AllowedAlgorithms(),
		// The audience and the times are checked below, with the
		// endpoint's resource and ClockSkew.
		SkipClientIDCheck: true, SkipExpiryCheck: true, Now: o.Now,
	})
	return &Verifier{opts: o, keys: keys, tokens: tokens, refresh: orDefault(o.RefreshInterval, DefaultRefreshInterval)}, nil
}

// Issuer is the issuer's URL.
func (v *Verifier) Issuer() string { return v.opts.Issuer }

// Scopes are the scopes a token must carry.
func (v *Verifier) Scopes() []string { return slices.Clone(v.opts.Scopes) }

// Run fetches the keys now, then again every refresh interval (every few
// seconds while there are none yet), until ctx ends.
func (v *Verifier) Run(ctx context.Context) {
	for {
		f := v.keys.join(true)
		select {
		case <-ctx.Done():
			return
		case <-f.done:
		}
		wait := v.refresh
		if !v.keys.hasKeys() {
			wait = retryInterval
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// Verify checks token as presented at the endpoint whose resource URL is
// resource, and returns who it names. A token that is not accepted is a
// *Refusal.
func (v *Verifier) Verify(ctx context.Context, token, resource string) (Identity, error) {
	if len(token) > MaxTokenBytes {
		return Identity{}, refuse(Invalid, fmt.Sprintf("the token has %d bytes, more than the %d accepted", len(token), MaxTokenBytes))
	}
	if !LooksLikeJWT(token) {
		return Identity{}, refuse(Invalid, "not a JWT (three base64url parts)")
	}
	ctx, out := withOutcome(ctx)
	verified, err := v.tokens.Verify(ctx, token)
	if err != nil {
		if out.unavailable {
			return Identity{}, refuse(Unavailable, "the issuer's keys could not be fetched yet")
		}
		return Identity{}, refuse(Invalid, err.Error())
	}
	if verified.Issuer != v.opts.Issuer {
		return Identity{}, refuse(Invalid, fmt.Sprintf("issued by %q, not %q", verified.Issuer, v.opts.Issuer))
	}
	var c claims
	if err := verified.Claims(&c); err != nil {
		return Identity{}, refuse(Invalid, "the claims are not a JSON object")
	}
	if err := v.checkClaims(c, verified.Audience, resource); err != nil {
		return Identity{}, err
	}
	exp, _ := c.time("exp")
	id := Identity{Issuer: verified.Issuer, Subject: verified.Subject, Email: c.email(),
		Groups: c.list(v.opts.GroupsClaim, false), Scopes: c.scopes(), Expiry: exp}
	for _, s := range v.opts.Scopes {
		if !slices.Contains(id.Scopes, s) {
			return Identity{}, refuse(InsufficientScope, fmt.Sprintf("the token lacks the scope %q", s))
		}
	}
	return id, nil
}

// checkClaims checks the claims every token must have: a subject, an
// audience that names this endpoint, and a validity that includes now.
func (v *Verifier) checkClaims(c claims, audience []string, resource string) error {
	sub := c.str("sub")
	switch {
	case sub == "":
		return refuse(Invalid, "no sub claim")
	case len(sub) > maxSubjectBytes:
		return refuse(Invalid, "the sub claim is longer than 255 bytes")
	case len(audience) == 0:
		return refuse(Invalid, "no aud claim")
	case !v.audienceMatches(audience, resource):
		return refuse(Invalid, fmt.Sprintf("the audience %q names neither this endpoint (%s) nor an --oidc-audience", audience, resource))
	}
	return v.checkTimes(c)
}

// audienceMatches reports whether aud names the endpoint's resource URL
// (RFC 8707; a trailing slash aside, oauthex.MatchesResource) or one of
// the configured audiences exactly.
func (v *Verifier) audienceMatches(aud []string, resource string) bool {
	if resource != "" && oauthex.MatchesResource(aud, resource) {
		return true
	}
	for _, a := range aud {
		if slices.Contains(v.opts.Audiences, a) {
			return true
		}
	}
	return false
}

// checkTimes checks exp (required) and nbf (when present) within
// ClockSkew of now.
func (v *Verifier) checkTimes(c claims) error {
	now := v.opts.Now()
	exp, ok := c.time("exp")
	switch {
	case !ok:
		return refuse(Invalid, "no exp claim")
	case now.After(exp.Add(ClockSkew)):
		return refuse(Invalid, "the token expired at "+exp.UTC().Format(time.RFC3339))
	}
	if _, present := c["nbf"]; !present {
		return nil
	}
	nbf, ok := c.time("nbf")
	switch {
	case !ok:
		return refuse(Invalid, "the nbf claim is not a time")
	case now.Add(ClockSkew).Before(nbf):
		return refuse(Invalid, "the token is not valid before "+nbf.UTC().Format(time.RFC3339))
	}
	return nil
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// IsRefusal returns the refusal err is, if it is one.
func IsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
