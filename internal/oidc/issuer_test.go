// SPDX-License-Identifier: Apache-2.0

package oidc

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

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// testResource is the endpoint tokens are presented at in the tests.
const testResource = "http://127.0.0.1:8090/mcp"

// signingKey is a private key with the key ID and algorithm it signs with.
type signingKey struct {
	kid string
	alg jose.SignatureAlgorithm
	key crypto.Signer
}

// public is the key's JWK as the issuer publishes it.
func (k signingKey) public() jose.JSONWebKey {
	return jose.JSONWebKey{Key: k.key.Public(), KeyID: k.kid, Algorithm: string(k.alg), Use: "sig"}
}

var (
	rsaOnce sync.Once
	rsaKeys [3]*rsa.PrivateKey
)

// rsaKey is the nth of a few RSA keys made once per test binary (making
// one takes tens of milliseconds).
func rsaKey(t testing.TB, n int) *rsa.PrivateKey {
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
	return rsaKeys[n]
}

// newRSAKey is the nth RSA key under kid.
func newRSAKey(t testing.TB, n int, kid string) signingKey {
	return signingKey{kid: kid, alg: jose.RS256, key: rsaKey(t, n)}
}

// newECKey is a fresh P-256 key under kid.
func newECKey(t testing.TB, kid string) signingKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jose.ES256, key: k}
}

// mint signs claims with key, its key ID in the header ("" leaves it out).
func mint(t testing.TB, key signingKey, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if key.kid != "" {
		opts = opts.WithHeader(jose.HeaderKey("kid"), key.kid)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: key.alg, Key: key.key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sign(t, signer, claims)
}

// sign serializes claims signed by signer in compact form.
func sign(t testing.TB, signer jose.Signer, claims map[string]any) string {
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

// testIssuer is an OpenID provider in the test process: its discovery
// document and its JWKS, which a test changes, breaks or slows.
type testIssuer struct {
	srv  *httptest.Server
	url  string
	jwks atomic.Value // []byte
	// jwksHits and discoveryHits count the fetches.
	jwksHits, discoveryHits atomic.Int64
	// down makes every answer a 503.
	down atomic.Bool
	// jwksHandler, when set, answers the JWKS instead.
	jwksHandler atomic.Value // http.HandlerFunc
	// issuerInDoc, when set, is the issuer the discovery document names.
	issuerInDoc atomic.Value // string
}

// newTestIssuer serves an issuer publishing keys.
func newTestIssuer(t testing.TB, keys ...signingKey) *testIssuer {
	t.Helper()
	iss := &testIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", iss.serveDiscovery)
	mux.HandleFunc("GET /jwks", iss.serveJWKS)
	iss.srv = httptest.NewServer(mux)
	t.Cleanup(iss.srv.Close)
	iss.url = iss.srv.URL
	iss.publish(t, keys...)
	return iss
}

// publish replaces the JWKS with keys.
func (iss *testIssuer) publish(t testing.TB, keys ...signingKey) {
	t.Helper()
	set := jose.JSONWebKeySet{}
	for _, k := range keys {
		set.Keys = append(set.Keys, k.public())
	}
	iss.publishRaw(t, set)
}

// publishRaw replaces the JWKS with a document of v.
func (iss *testIssuer) publishRaw(t testing.TB, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	iss.jwks.Store(data)
}

func (iss *testIssuer) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	iss.discoveryHits.Add(1)
	if iss.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	issuer := iss.url
	if named, ok := iss.issuerInDoc.Load().(string); ok {
		issuer = named
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"issuer": issuer, "jwks_uri": iss.url + "/jwks"})
}

func (iss *testIssuer) serveJWKS(w http.ResponseWriter, r *http.Request) {
	iss.jwksHits.Add(1)
	if h, ok := iss.jwksHandler.Load().(http.HandlerFunc); ok && h != nil {
		h(w, r)
		return
	}
	if iss.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(iss.jwks.Load().([]byte))
}

// testVerifier is a verifier of iss on a hand-moved clock; o's other
// fields are kept.
func testVerifier(t testing.TB, iss *testIssuer, o Options) (*Verifier, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(time.Unix(1_800_000_000, 0))
	o.Issuer, o.Now = iss.url, clock.Now
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v, clock
}

// goodClaims are the claims of a token the gateway accepts at
// testResource, now being the verifier's clock.
func goodClaims(iss string, now time.Time) map[string]any {
	return map[string]any{
		"iss": iss, "sub": "user-1", "aud": testResource, "email": "ada@example.com",
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nbf": now.Add(-time.Second).Unix(),
		"scope": "openid dagu.read", "groups": []string{"sre", "dev"},
	}
}

// with is claims with the changes made: a nil value removes the claim.
func with(claims map[string]any, changes map[string]any) map[string]any {
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
