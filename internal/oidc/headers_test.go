// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// rawRS256 signs header and payload, given as JSON text (so a test can
// write what an encoder would not: duplicate members, crit, jku), with an
// RSA key, RS256.
func rawRS256(t testing.TB, key oidctest.Key, header, payload string) string {
	t.Helper()
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload))
	digest := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key.Signer.(*rsa.PrivateKey), crypto.SHA256, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + enc.EncodeToString(sig)
}

// TestHeaderForgeriesAreRefused presents tokens whose JOSE header tries
// to choose the key or change the rules of the check: a key embedded in
// the header (jwk), a key set or certificate at a URL the attacker runs
// (jku, x5u), a crit member, unencoded payloads (b64 false), a nested JWT
// and a JWE. Each is refused, and the gateway never fetches the URLs the
// header names.
func TestHeaderForgeriesAreRefused(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	attacker := newRSAKey(t, 1, "evil")
	iss := oidctest.NewIssuer(t, key)
	var lured atomic.Int64
	lure := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		lured.Add(1)
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []any{attacker.Public()}})
	}))
	t.Cleanup(lure.Close)
	v, clock := testVerifier(t, iss, Options{})
	good, err := json.Marshal(goodClaims(iss.URL, clock.Now()))
	if err != nil {
		t.Fatal(err)
	}
	payload := string(good)
	jwk, err := json.Marshal(attacker.Public())
	if err != nil {
		t.Fatal(err)
	}
	inner := mint(t, key, goodClaims(iss.URL, clock.Now()))
	cases := []struct {
		name  string
		token string
	}{
		{"jwk of the attacker under an unknown key ID", rawRS256(t, attacker, `{"alg":"RS256","kid":"evil","jwk":`+string(jwk)+`}`, payload)},
		{"jwk of the attacker under the issuer's key ID", rawRS256(t, attacker, `{"alg":"RS256","kid":"k1","jwk":`+string(jwk)+`}`, payload)},
		{"jku at the attacker", rawRS256(t, attacker, `{"alg":"RS256","kid":"evil","jku":"`+lure.URL+`"}`, payload)},
		{"x5u at the attacker", rawRS256(t, attacker, `{"alg":"RS256","kid":"evil","x5u":"`+lure.URL+`"}`, payload)},
		{"crit member naming an extension", rawRS256(t, key, `{"alg":"RS256","kid":"k1","crit":["exp"],"exp":1}`, payload)},
		{"unencoded payload (b64 false)", rawRS256(t, key, `{"alg":"RS256","kid":"k1","b64":false,"crit":["b64"]}`, payload)},
		{"alg none after RS256 in the header", rawRS256(t, attacker, `{"alg":"RS256","kid":"k1","alg":"none"}`, payload)},
		{"nested JWT as the payload", rawRS256(t, key, `{"alg":"RS256","kid":"k1","cty":"JWT"}`, `"`+inner+`"`)},
		{"JWE (five parts)", "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := v.Verify(context.Background(), tc.token, testResource); err == nil {
				t.Fatal("accepted")
			} else if r, ok := IsRefusal(err); !ok || r.Kind != Invalid {
				t.Fatalf("Verify = %v, want an Invalid refusal", err)
			}
		})
	}
	t.Cleanup(func() {
		if n := lured.Load(); n != 0 {
			t.Errorf("the gateway fetched a URL a token's header named %d times", n)
		}
	})
}

// TestDuplicateClaimsReadAlike checks a signed payload with a member
// written twice is read the same way by the signature library's claims
// and the gateway's own (the last one wins in both): the issuer checked
// is the issuer whose claims are used.
func TestDuplicateClaimsReadAlike(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	v, clock := testVerifier(t, iss, Options{})
	exp := clock.Now().Unix() + 300
	payload := func(first, last string) string {
		return `{"iss":"` + first + `","iss":"` + last + `","sub":"user-1","sub":"user-2","aud":"` + testResource + `","exp":` +
			jsonInt(exp) + `}`
	}
	if _, err := v.Verify(context.Background(), rawRS256(t, key, `{"alg":"RS256","kid":"k1"}`, payload(iss.URL, "https://other.example")), testResource); err == nil {
		t.Error("a token whose last iss is another issuer was accepted")
	}
	id, err := v.Verify(context.Background(), rawRS256(t, key, `{"alg":"RS256","kid":"k1"}`, payload("https://other.example", iss.URL)), testResource)
	if err != nil {
		t.Fatal(err)
	}
	if id.Subject != "user-2" || id.Issuer != iss.URL {
		t.Errorf("identity %+v, want the last sub and iss", id)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestThousandsOfKeysAreBounded checks a JWKS of thousands of keys keeps the
// first maxKeys, so a key past them does not verify, and one fetch per
// refresh is made.
func TestThousandsOfKeysAreBounded(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	far := newRSAKey(t, 1, "far")
	iss := oidctest.NewIssuer(t, key)
	pub, err := json.Marshal(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	farPub, err := json.Marshal(far.Public())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"keys":[`)
	for range 2000 {
		b.WriteString(strings.Replace(string(pub), `"kid":"k1"`, `"kid":"filler"`, 1) + ",")
	}
	b.WriteString(string(farPub) + "]}")
	body := b.String()
	iss.ServeJWKSWith(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
	v, clock := testVerifier(t, iss, Options{FetchMaxBytes: int64(len(body)) + 1})
	_, err = v.Verify(context.Background(), mint(t, far, goodClaims(iss.URL, clock.Now())), testResource)
	if err == nil {
		t.Fatal("a key past the first 64 verified")
	}
	if n := iss.JWKSHits.Load(); n != 1 {
		t.Errorf("%d JWKS fetches, want 1", n)
	}
}
