// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// FuzzVerify feeds the bearer parser and verifier arbitrary tokens, the
// seeds a good token and its forgeries. Nothing may panic, and whatever
// is accepted carries the claims of the one good token: no change to a
// token makes it say something else and still verify.
func FuzzVerify(f *testing.F) {
	key := newRSAKey(f, 0, "k1")
	iss := oidctest.NewIssuer(f, key)
	v, clock := testVerifier(f, iss, Options{Audiences: []string{"api://dagu"}})
	good := goodClaims(iss.URL, clock.Now())
	token := mint(f, key, good)
	if _, err := v.Verify(context.Background(), token, testResource); err != nil {
		f.Fatal(err)
	}
	f.Add(token)
	f.Add(unsigned(f, "none", "k1", good))
	f.Add(hmacWithPublicKey(f, key, "PEM", good))
	f.Add(mint(f, key, with(good, map[string]any{"aud": "api://dagu", "sub": "other"})))
	f.Add(strings.Replace(token, ".", "..", 1))
	f.Add("a.b.c")
	f.Add("")
	f.Fuzz(func(t *testing.T, candidate string) {
		id, err := v.Verify(context.Background(), candidate, testResource)
		if err != nil {
			if _, ok := IsRefusal(err); !ok {
				t.Fatalf("an error that is not a refusal: %v", err)
			}
			return
		}
		if id.Subject != "user-1" && id.Subject != "other" || id.Email != "ada@example.com" || id.Issuer != iss.URL {
			t.Fatalf("accepted a token saying %+v", id)
		}
	})
}

// FuzzLooksLikeJWT checks the shape test agrees with its definition.
func FuzzLooksLikeJWT(f *testing.F) {
	for _, s := range []string{"a.b.c", "a..c", ".b.c", "a.b.", "a.b.c.d", "a b.c.d", "eyJ.eyJ.sig_-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := strings.Split(s, ".")
		want := len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != ""
		for _, p := range parts {
			want = want && strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == ""
		}
		if got := LooksLikeJWT(s); got != want {
			t.Fatalf("LooksLikeJWT(%q) = %v, want %v", s, got, want)
		}
	})
}
