// SPDX-License-Identifier: Apache-2.0

// Package oidctest is an OpenID provider in the test process for the tests
// of the gateway's sign-in: signing keys, tokens signed with them, and an
// issuer serving its discovery document and JWKS, which a test changes,
// breaks or slows. Only tests import it.
package oidctest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Key is a private signing key with the key ID and algorithm it signs
// with.
type Key struct {
	KID    string
	Alg    jose.SignatureAlgorithm
	Signer crypto.Signer
}

// Public is the key's JWK as the issuer publishes it.
func (k Key) Public() jose.JSONWebKey {
	return jose.JSONWebKey{Key: k.Signer.Public(), KeyID: k.KID, Algorithm: string(k.Alg), Use: "sig"}
}

var (
	rsaOnce sync.Once
	rsaKeys [3]*rsa.PrivateKey
)

// RSAKey is the nth (0 to 2) of a few RSA keys made once per test binary
// (making one takes tens of milliseconds), under kid, signing RS256.
func RSAKey(t testing.TB, n int, kid string) Key {
	t.Helper()
	rsaOnce.Do(func() {
		for i := range rsaKeys {
			k, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				panic(err)
			}
			rsaKeys[i] = k
		}
	})
	return Key{KID: kid, Alg: jose.RS256, Signer: rsaKeys[n]}
}

// ECKey is a fresh P-256 key under kid, signing ES256.
func ECKey(t testing.TB, kid string) Key {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return Key{KID: kid, Alg: jose.ES256, Signer: k}
}

// Mint signs claims with the key, its key ID in the header ("" leaves it
// out), typ at+jwt (RFC 9068).
func (k Key) Mint(t testing.TB, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if k.KID != "" {
		opts = opts.WithHeader(jose.HeaderKey("kid"), k.KID)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: k.Alg, Key: k.Signer}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return Sign(t, signer, claims)
}

// Sign serializes claims signed by signer in compact form.
func Sign(t testing.TB, signer jose.Signer, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// Claims are the claims of a token for resource the gateway accepts at
// now: sub user-1, email ada@example.com, scopes openid and dagu.read,
// groups sre and dev, valid for 5 minutes.
func Claims(issuer, resource string, now time.Time) map[string]any {
	return map[string]any{
		"iss": issuer, "sub": "user-1", "aud": resource, "email": "ada@example.com",
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nbf": now.Add(-time.Second).Unix(),
		"scope": "openid dagu.read", "groups": []string{"sre", "dev"},
	}
}

// With is claims with the changes made: a nil value removes the claim.
func With(claims map[string]any, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range claims {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// Issuer is an OpenID provider in the test process: its discovery
// document at /.well-known/openid-configuration and its JWKS at /jwks.
type Issuer struct {
	// URL is the issuer's URL (http on loopback).
	URL string
	// JWKSHits and DiscoveryHits count the fetches.
	JWKSHits, DiscoveryHits atomic.Int64
	// Down makes every answer a 503.
	Down atomic.Bool

	jwks        atomic.Value // []byte
	jwksHandler atomic.Value // http.HandlerFunc
	issuerInDoc atomic.Value // string
}

// NewIssuer serves an issuer publishing keys until the test ends.
func NewIssuer(t testing.TB, keys ...Key) *Issuer {
	t.Helper()
	iss := &Issuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", iss.serveDiscovery)
	mux.HandleFunc("GET /jwks", iss.serveJWKS)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	iss.URL = srv.URL
	iss.Publish(t, keys...)
	return iss
}

// Publish replaces the JWKS with keys.
func (iss *Issuer) Publish(t testing.TB, keys ...Key) {
	t.Helper()
	set := jose.JSONWebKeySet{}
	for _, k := range keys {
		set.Keys = append(set.Keys, k.Public())
	}
	data, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	iss.jwks.Store(data)
}

// ServeJWKSWith answers the JWKS with h instead.
func (iss *Issuer) ServeJWKSWith(h http.HandlerFunc) { iss.jwksHandler.Store(h) }

// NameInDiscovery makes the discovery document name issuer instead of
// the issuer's URL.
func (iss *Issuer) NameInDiscovery(issuer string) { iss.issuerInDoc.Store(issuer) }

func (iss *Issuer) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	iss.DiscoveryHits.Add(1)
	if iss.Down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	issuer := iss.URL
	if named, ok := iss.issuerInDoc.Load().(string); ok {
		issuer = named
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"issuer": issuer, "jwks_uri": iss.URL + "/jwks"})
}

func (iss *Issuer) serveJWKS(w http.ResponseWriter, r *http.Request) {
	iss.JWKSHits.Add(1)
	if h, ok := iss.jwksHandler.Load().(http.HandlerFunc); ok && h != nil {
		h(w, r)
		return
	}
	if iss.Down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(iss.jwks.Load().([]byte))
}
