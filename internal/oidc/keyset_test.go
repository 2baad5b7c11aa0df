// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// verifyEach verifies tokens at once and returns the refusal kinds seen.
func verifyEach(v *Verifier, tokens []string) map[RefusalKind]int {
	var mu sync.Mutex
	kinds := map[RefusalKind]int{}
	var wg sync.WaitGroup
	for _, token := range tokens {
		wg.Go(func() {
			_, err := v.Verify(context.Background(), token, testResource)
			var kind RefusalKind
			if r, ok := IsRefusal(err); ok {
				kind = r.Kind
			}
			mu.Lock()
			kinds[kind]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return kinds
}

// unknownKidTokens are n tokens signed by keys the issuer never
// published, each under its own key ID.
func unknownKidTokens(t testing.TB, iss string, now time.Time, n int) []string {
	signer := newECKey(t, "")
	tokens := make([]string, n)
	for i := range tokens {
		signer.KID = "forged-" + strconv.Itoa(i)
		tokens[i] = mint(t, signer, goodClaims(iss, now))
	}
	return tokens
}

// TestUnknownKeyIDsFetchAtMostOncePerInterval sends 1,000 tokens with
// unknown key IDs at once, twice: within the minimum refresh interval of
// the first fetch they start none, after it exactly one (all joining it).
func TestUnknownKeyIDsFetchAtMostOncePerInterval(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	reg := prometheus.NewRegistry()
	// A minute per fetch: on a loaded machine under -race, the default 5 s
	// bound could end the second burst's fetch before it reached the JWKS.
	v, clock := testVerifier(t, iss, Options{Registerer: reg, FetchTimeout: time.Minute})
	if _, err := v.Verify(context.Background(), mint(t, key, goodClaims(iss.URL, clock.Now())), testResource); err != nil {
		t.Fatal(err)
	}
	if got := iss.JWKSHits.Load(); got != 1 {
		t.Fatalf("JWKS fetched %d times by the first token, want 1", got)
	}
	tokens := unknownKidTokens(t, iss.URL, clock.Now(), 1000)
	if kinds := verifyEach(v, tokens); kinds[Invalid] != len(tokens) {
		t.Fatalf("refusals %v, want %d invalid", kinds, len(tokens))
	}
	if got := iss.JWKSHits.Load(); got != 1 {
		t.Errorf("JWKS fetched %d times after a burst within the interval, want 1", got)
	}
	clock.Advance(DefaultMinRefresh)
	if kinds := verifyEach(v, tokens); kinds[Invalid] != len(tokens) {
		t.Fatalf("refusals %v, want %d invalid", kinds, len(tokens))
	}
	if got := iss.JWKSHits.Load(); got != 2 {
		t.Errorf("JWKS fetched %d times after a burst past the interval, want 2", got)
	}
	if got := testutil.ToFloat64(v.keys.metrics.skipped); got < 1000 {
		t.Errorf("skipped fetches %v, want at least 1000", got)
	}
}

// TestNewKeyIsAcceptedWithinOneRefresh: a key the issuer publishes after
// the last fetch verifies once a fetch may start again.
func TestNewKeyIsAcceptedWithinOneRefresh(t *testing.T) {
	t.Parallel()
	old, rotated := newRSAKey(t, 0, "k1"), newRSAKey(t, 1, "k2")
	iss := oidctest.NewIssuer(t, old)
	v, clock := testVerifier(t, iss, Options{})
	if _, err := v.Verify(context.Background(), mint(t, old, goodClaims(iss.URL, clock.Now())), testResource); err != nil {
		t.Fatal(err)
	}
	iss.Publish(t, old, rotated)
	token := mint(t, rotated, goodClaims(iss.URL, clock.Now()))
	if _, err := v.Verify(context.Background(), token, testResource); err == nil {
		t.Fatal("a new key verified within the interval of the last fetch")
	}
	clock.Advance(DefaultMinRefresh)
	if _, err := v.Verify(context.Background(), token, testResource); err != nil {
		t.Fatalf("the new key after one refresh: %v", err)
	}
	iss.Publish(t, rotated)
	clock.Advance(DefaultMinRefresh)
	v.keys.join(true)
	waitFlight(v)
	if _, err := v.Verify(context.Background(), mint(t, old, goodClaims(iss.URL, clock.Now())), testResource); err == nil {
		t.Error("a key the issuer withdrew still verifies after a refresh")
	}
}

// TestKeysStayWhileIssuerIsDown: once fetched, the keys verify while the
// issuer answers nothing; an unknown key ID is then invalid, not a reason
// to say the gateway cannot check tokens.
func TestKeysStayWhileIssuerIsDown(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	logs := &testkit.LogBuffer{}
	v, clock := testVerifier(t, iss, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if _, err := v.Verify(context.Background(), mint(t, key, goodClaims(iss.URL, clock.Now())), testResource); err != nil {
		t.Fatal(err)
	}
	iss.Down.Store(true)
	clock.Advance(time.Hour)
	v.keys.join(true)
	waitFlight(v)
	if _, err := v.Verify(context.Background(), mint(t, key, goodClaims(iss.URL, clock.Now())), testResource); err != nil {
		t.Fatalf("a fetched key while the issuer is down: %v", err)
	}
	clock.Advance(DefaultMinRefresh)
	_, err := v.Verify(context.Background(), unknownKidTokens(t, iss.URL, clock.Now(), 1)[0], testResource)
	if r, ok := IsRefusal(err); !ok || r.Kind != Invalid {
		t.Fatalf("unknown key ID while the issuer is down: %v, want invalid", err)
	}
	if !strings.Contains(logs.String(), "the keys fetched before stay in use") {
		t.Errorf("log does not say the keys stay:\n%s", logs)
	}
}

// TestNoKeysRefusesEveryToken: before any fetch succeeds no token is
// accepted, and the refusal says the gateway cannot check tokens yet;
// once the issuer answers, tokens verify.
func TestNoKeysRefusesEveryToken(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	iss.Down.Store(true)
	v, clock := testVerifier(t, iss, Options{})
	token := mint(t, key, goodClaims(iss.URL, clock.Now()))
	_, err := v.Verify(context.Background(), token, testResource)
	if r, ok := IsRefusal(err); !ok || r.Kind != Unavailable {
		t.Fatalf("Verify without keys = %v, want unavailable", err)
	}
	iss.Down.Store(false)
	clock.Advance(DefaultMinRefresh)
	if _, err := v.Verify(context.Background(), token, testResource); err != nil {
		t.Fatalf("Verify once the issuer answers: %v", err)
	}
}

// TestHostileIssuerAnswersAreBounded: a JWKS endpoint that hangs, or
// answers 50 MB with or without declaring it, fails its fetch within the
// fetch's bounds; the verifier then has no keys and refuses.
func TestHostileIssuerAnswersAreBounded(t *testing.T) {
	t.Parallel()
	const huge = 50 << 20
	var written atomic.Int64
	cases := []struct {
		name    string
		handler http.HandlerFunc
		log     string
	}{
		{"hangs", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, "deadline exceeded"},
		{"50 MB declared", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(huge))
			written.Add(writeUpTo(w, huge))
		}, "declared"},
		{"50 MB undeclared", func(w http.ResponseWriter, _ *http.Request) {
			written.Add(writeUpTo(w, huge))
		}, "more than"},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>")) }, "not a JWKS document"},
		{"no usable key", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"k1"}]}`))
		}, "no usable signing key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := newRSAKey(t, 0, "k1")
			iss := oidctest.NewIssuer(t, key)
			iss.ServeJWKSWith(tc.handler)
			logs := &testkit.LogBuffer{}
			timeout := 10 * time.Second // a loaded machine must not fail the bounded reads
			if tc.name == "hangs" {
				timeout = 200 * time.Millisecond
			}
			v, clock := testVerifier(t, iss, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), FetchTimeout: timeout})
			_, err := v.Verify(context.Background(), mint(t, key, goodClaims(iss.URL, clock.Now())), testResource)
			if r, ok := IsRefusal(err); !ok || r.Kind != Unavailable {
				t.Fatalf("Verify = %v, want unavailable", err)
			}
			if !strings.Contains(logs.String(), tc.log) {
				t.Errorf("log does not say %q:\n%s", tc.log, logs)
			}
		})
	}
	t.Cleanup(func() {
		if n := written.Load(); n >= 2*huge {
			t.Errorf("the issuer wrote %d bytes before the gateway stopped reading", n)
		}
	})
}

// writeUpTo writes n bytes of JSON-looking filler until the client stops
// reading, and reports how many were written.
func writeUpTo(w http.ResponseWriter, n int) int64 {
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	var total int64
	for total < int64(n) {
		m, err := w.Write(chunk)
		total += int64(m)
		if err != nil {
			break
		}
	}
	return total
}

// TestDiscoveryIsChecked: a discovery document naming another issuer, or
// a JWKS URL over plain HTTP off loopback, gives no keys.
func TestDiscoveryIsChecked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, issuer, log string
	}{
		{"another issuer", "https://evil.example", "names the issuer"},
		{"trailing slash", "", "names the issuer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := newRSAKey(t, 0, "k1")
			iss := oidctest.NewIssuer(t, key)
			named := tc.issuer
			if named == "" {
				named = iss.URL + "/"
			}
			iss.NameInDiscovery(named)
			logs := &testkit.LogBuffer{}
			v, clock := testVerifier(t, iss, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
			_, err := v.Verify(context.Background(), mint(t, key, goodClaims(iss.URL, clock.Now())), testResource)
			if r, ok := IsRefusal(err); !ok || r.Kind != Unavailable {
				t.Fatalf("Verify = %v, want unavailable", err)
			}
			if !strings.Contains(logs.String(), tc.log) {
				t.Errorf("log does not say %q:\n%s", tc.log, logs)
			}
			if iss.JWKSHits.Load() != 0 {
				t.Errorf("the JWKS was fetched after a bad discovery document")
			}
		})
	}
}

// TestKeySetParsing checks which keys of a JWKS are kept.
func TestKeySetParsing(t *testing.T) {
	t.Parallel()
	rsaPub := newRSAKey(t, 0, "r1").Public()
	ecPub := newECKey(t, "e1").Public()
	private := jose.JSONWebKey{Key: newRSAKey(t, 1, "").Signer, KeyID: "private", Algorithm: "RS256", Use: "sig"}
	enc := rsaPub
	enc.KeyID, enc.Use = "enc", "enc"
	hs := rsaPub
	hs.KeyID, hs.Algorithm = "hs", "HS256"
	json := func(keys ...any) []byte {
		var b strings.Builder
		b.WriteString(`{"keys":[`)
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			switch k := k.(type) {
			case jose.JSONWebKey:
				data, err := k.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				b.Write(data)
			case string:
				b.WriteString(k)
			}
		}
		b.WriteString("]}")
		return []byte(b.String())
	}
	cases := []struct {
		name string
		body []byte
		kids []string
	}{
		{"RSA and EC", json(rsaPub, ecPub), []string{"r1", "e1"}},
		{"symmetric key skipped", json(`{"kty":"oct","k":"c2VjcmV0","kid":"oct"}`, rsaPub), []string{"r1"}},
		{"private key skipped", json(private, rsaPub), []string{"r1"}},
		{"encryption key skipped", json(enc, rsaPub), []string{"r1"}},
		{"HMAC algorithm skipped", json(hs, rsaPub), []string{"r1"}},
		{"unknown key type skipped", json(`{"kty":"OKP","crv":"X448","x":"AAAA","kid":"x"}`, rsaPub), []string{"r1"}},
		{"weak RSA skipped", json(`{"kty":"RSA","n":"`+strings.Repeat("A", 171)+`","e":"AQAB","kid":"weak"}`, rsaPub), []string{"r1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			keys, err := parseKeySet(tc.body)
			if err != nil {
				t.Fatal(err)
			}
			var kids []string
			for _, k := range keys {
				kids = append(kids, k.KeyID)
			}
			if strings.Join(kids, ",") != strings.Join(tc.kids, ",") {
				t.Errorf("kept %q, want %q", kids, tc.kids)
			}
		})
	}
	many := make([]any, 0, maxKeys+10)
	for i := range maxKeys + 10 {
		k := ecPub
		k.KeyID = fmt.Sprint(i)
		many = append(many, k)
	}
	if keys, err := parseKeySet(json(many...)); err != nil || len(keys) != maxKeys {
		t.Errorf("a set of %d keys kept %d (%v), want %d", len(many), len(keys), err, maxKeys)
	}
}

// TestTokensWithoutKeyID: a token without a key ID verifies against the
// one key that fits its algorithm, and not at all when several do.
func TestTokensWithoutKeyID(t *testing.T) {
	t.Parallel()
	one, other := newRSAKey(t, 0, "k1"), newRSAKey(t, 1, "k2")
	single := oidctest.NewIssuer(t, one)
	v, clock := testVerifier(t, single, Options{})
	unnamed := one
	unnamed.KID = ""
	if _, err := v.Verify(context.Background(), mint(t, unnamed, goodClaims(single.URL, clock.Now())), testResource); err != nil {
		t.Errorf("no key ID, one key: %v", err)
	}
	several := oidctest.NewIssuer(t, one, other)
	v, clock = testVerifier(t, several, Options{})
	if _, err := v.Verify(context.Background(), mint(t, unnamed, goodClaims(several.URL, clock.Now())), testResource); err == nil {
		t.Error("no key ID, two RSA keys: accepted")
	}
}

// waitFlight waits for the fetch in flight, if any.
func waitFlight(v *Verifier) {
	v.keys.mu.Lock()
	f := v.keys.flight
	v.keys.mu.Unlock()
	if f != nil {
		<-f.done
	}
}
