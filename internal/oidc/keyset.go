// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DefaultMinRefresh is the least time between two fetches of the issuer's
// keys a token with an unknown key ID may start: a burst of such tokens
// (forged, or all signed with a key the issuer just published) costs one
// fetch every few seconds, never one per request.
const DefaultMinRefresh = 5 * time.Second

// Errors of a signature check, told apart by the verifier without their
// text (see outcome).
var (
	errUnknownKey   = errors.New("no key of the issuer's key set has the token's key ID")
	errBadSignature = errors.New("the signature does not verify with the issuer's key")
	errNoKeys       = errors.New("the issuer's keys could not be fetched yet")
)

// keySet is the issuer's signing keys (an oidc.KeySet for go-oidc's
// verifier): fetched through discovery, kept while the issuer is down,
// replaced by each good fetch. A token whose key ID is not in the set
// starts a fetch unless one started less than minRefresh ago; every
// token that needs a fetch while one is in flight waits for that one
// (one fetch in flight at most).
type keySet struct {
	issuer     string
	fetch      *fetcher
	now        func() time.Time
	minRefresh time.Duration
	log        *slog.Logger
	metrics    *metrics

	mu        sync.Mutex
	jwksURL   string
	keys      []jose.JSONWebKey
	fetchedAt time.Time
	lastStart time.Time
	flight    *flight
	failure   string // the problem last logged; "" while fetches succeed
}

// flight is one fetch of the keys that several tokens may wait for.
type flight struct {
	done chan struct{}
	err  error
}

// VerifySignature checks the signature of a compact JWS against the
// issuer's keys and returns its payload. Only the allow-listed algorithms
// parse; a token naming a key ID is checked against that key alone, one
// without a key ID only when a single key fits its algorithm (trying every
// key would let one token cost a signature check per key).
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSignedCompact(raw, allowedAlgorithms)
	if err != nil {
		return nil, fmt.Errorf("malformed JWS: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("not exactly one signature")
	}
	header := jws.Signatures[0].Header
	alg := jose.SignatureAlgorithm(header.Algorithm)
	candidates := k.candidates(header.KeyID, alg)
	if len(candidates) == 0 && k.refresh(ctx) {
		candidates = k.candidates(header.KeyID, alg)
	}
	if len(candidates) == 0 {
		if !k.hasKeys() {
			noteUnavailable(ctx)
			return nil, errNoKeys
		}
		return nil, errUnknownKey
	}
	payload, err := jws.Verify(&candidates[0])
	if err != nil {
		return nil, errBadSignature
	}
	return payload, nil
}

// candidates are the keys that may have signed a token with key ID kid
// and algorithm alg: the key with that ID, or without an ID the one key
// that fits alg (none when several do).
func (k *keySet) candidates(kid string, alg jose.SignatureAlgorithm) []jose.JSONWebKey {
	k.mu.Lock()
	keys := k.keys
	k.mu.Unlock()
	var out []jose.JSONWebKey
	for _, key := range keys {
		if (kid == "" || key.KeyID == kid) && fits(key, alg) {
			out = append(out, key)
		}
	}
	if len(out) > 1 {
		return nil
	}
	return out
}

// hasKeys reports whether any key was ever fetched.
func (k *keySet) hasKeys() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.keys) > 0
}

// refresh fetches the keys for a token that found none, unless a fetch
// started less than minRefresh ago; it joins a fetch in flight. It
// reports whether a fetch ended well while the caller waited.
func (k *keySet) refresh(ctx context.Context) bool {
	f := k.join(false)
	if f == nil {
		k.metrics.skipped.Inc()
		return false
	}
	select {
	case <-f.done:
		return f.err == nil
	case <-ctx.Done():
		return false
	}
}

// join returns the fetch in flight, else starts one when the last started
// at least minRefresh ago (or force), else returns nil.
func (k *keySet) join(force bool) *flight {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.flight != nil {
		return k.flight
	}
	now := k.now()
	if !force && !k.lastStart.IsZero() && now.Sub(k.lastStart) < k.minRefresh {
		return nil
	}
	f := &flight{done: make(chan struct{})}
	k.flight, k.lastStart = f, now
	go k.run(f)
	return f
}

// run makes one fetch and ends its flight.
func (k *keySet) run(f *flight) {
	keys, jwksURL, err := k.fetchKeys()
	k.mu.Lock()
	first := k.fetchedAt.IsZero()
	if err == nil {
		k.keys, k.jwksURL, k.fetchedAt = keys, jwksURL, k.now()
	}
	k.flight = nil
	k.mu.Unlock()
	k.report(len(keys), first, err)
	f.err = err
	close(f.done)
}

// fetchKeys discovers the JWKS URL the first time (and again after a
// failed fetch, in case the issuer moved it), then fetches the keys.
func (k *keySet) fetchKeys() ([]jose.JSONWebKey, string, error) {
	ctx := context.Background()
	k.mu.Lock()
	jwksURL := k.jwksURL
	stale := k.failure != ""
	k.mu.Unlock()
	if jwksURL == "" || stale {
		found, err := k.fetch.discover(ctx, k.issuer)
		if err != nil {
			return nil, "", err
		}
		jwksURL = found
	}
	body, err := k.fetch.get(ctx, jwksURL)
	if err != nil {
		return nil, "", fmt.Errorf("JWKS %s: %w", jwksURL, err)
	}
	keys, err := parseKeySet(body)
	if err != nil {
		return nil, "", fmt.Errorf("JWKS %s: %w", jwksURL, err)
	}
	return keys, jwksURL, nil
}

// report counts a fetch and logs a change: the first failure (once per
// distinct problem), and the recovery after one.
func (k *keySet) report(n int, first bool, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err == nil {
		k.metrics.fetches.WithLabelValues("ok").Inc()
		if k.failure != "" || first {
			k.log.Info("OIDC issuer's keys fetched", "issuer", k.issuer, "keys", n)
		}
		k.failure = ""
		return
	}
	k.metrics.fetches.WithLabelValues("error").Inc()
	if err.Error() == k.failure {
		return
	}
	k.failure = err.Error()
	if len(k.keys) > 0 {
		k.log.Warn("could not fetch the OIDC issuer's keys: the keys fetched before stay in use", "issuer", k.issuer,
			"keys", len(k.keys), "fetched_at", k.fetchedAt, "error", k.failure)
		return
	}
	k.log.Error("could not fetch the OIDC issuer's keys: OIDC tokens are refused until a fetch succeeds (static tokens still work)",
		"issuer", k.issuer, "error", k.failure)
}
