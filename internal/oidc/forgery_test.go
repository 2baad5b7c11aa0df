// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// TestForgedTokensAreRefused presents every forgery the issue lists (and
// a few more) to a verifier whose keys are fetched, and checks each is
// refused as invalid, for the reason it was forged for.
func TestForgedTokensAreRefused(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	v, clock := testVerifier(t, iss, Options{Audiences: []string{"api://dagu-gateway"}})
	now := clock.Now()
	good := goodClaims(iss.URL, now)
	stranger := newRSAKey(t, 1, "k1") // another key under the issuer's key ID
	unknown := newRSAKey(t, 1, "k-unknown")

	cases := []struct {
		name, token, reason string
	}{
		{"wrong audience", mint(t, key, with(good, map[string]any{"aud": "http://127.0.0.1:8090/dagu/other/mcp"})), "audience"},
		{"audience of another host", mint(t, key, with(good, map[string]any{"aud": []string{"http://evil.example/mcp"}})), "audience"},
		{"wrong issuer", mint(t, key, with(good, map[string]any{"iss": "http://127.0.0.1:1/other"})), "issued by a different provider"},
		{"issuer with a trailing slash", mint(t, key, with(good, map[string]any{"iss": iss.URL + "/"})), "issued by a different provider"},
		{"expired", mint(t, key, with(good, map[string]any{"exp": now.Add(-ClockSkew - time.Second).Unix()})), "expired"},
		{"not yet valid", mint(t, key, with(good, map[string]any{"nbf": now.Add(ClockSkew + time.Second).Unix()})), "not valid before"},
		{"alg none", unsigned(t, "none", "k1", good), "unexpected signature algorithm"},
		{"alg none without a signature", unsigned(t, "none", "k1", good)[:strings.LastIndex(unsigned(t, "none", "k1", good), ".")+1], "not a JWT"},
		{"HS256 keyed with the public key (PEM)", hmacWithPublicKey(t, key, "PEM", good), "unexpected signature algorithm"},
		{"HS256 keyed with the public key (DER)", hmacWithPublicKey(t, key, "DER", good), "unexpected signature algorithm"},
		{"key not in the JWKS", mint(t, unknown, good), "key ID"},
		{"another key under a published key ID", mint(t, stranger, good), "does not verify"},
		{"EC signature under an RSA key's ID", mint(t, oidctest.Key{KID: "k1", Alg: jose.ES256, Signer: newECKey(t, "k1").Signer}, good), "key ID"},
		{"huge token", mint(t, key, with(good, map[string]any{"pad": strings.Repeat("a", MaxTokenBytes)})), "more than the"},
		{"no sub", mint(t, key, with(good, map[string]any{"sub": nil})), "no sub"},
		{"empty sub", mint(t, key, with(good, map[string]any{"sub": ""})), "no sub"},
		{"sub too long", mint(t, key, with(good, map[string]any{"sub": strings.Repeat("s", 256)})), "longer than 255"},
		{"no exp", mint(t, key, with(good, map[string]any{"exp": nil})), "no exp"},
		{"exp not a number", mint(t, key, with(good, map[string]any{"exp": "tomorrow"})), "failed to unmarshal"},
		{"no aud", mint(t, key, with(good, map[string]any{"aud": nil})), "no aud"},
		{"no iss", mint(t, key, with(good, map[string]any{"iss": nil})), "issued by a different provider"},
		{"nbf not a number", mint(t, key, with(good, map[string]any{"nbf": "soon"})), "failed to unmarshal"},
		{"not a JWT", "dagu_0123456789abcdef", "not a JWT"},
		{"JWS JSON serialization", `{"payload":"e30","signatures":[]}`, "not a JWT"},
		{"two parts", "eyJhbGciOiJSUzI1NiJ9.e30", "not a JWT"},
		{"tampered payload", tamper(t, mint(t, key, good), with(good, map[string]any{"sub": "admin"})), "does not verify"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := v.Verify(context.Background(), tc.token, testResource)
			r, ok := IsRefusal(err)
			if !ok || r.Kind != Invalid {
				t.Fatalf("Verify = %v, want an Invalid refusal", err)
			}
			if !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("reason %q does not say %q", r.Reason, tc.reason)
			}
			if strings.Contains(r.Reason, tc.token) {
				t.Errorf("the reason holds the token")
			}
		})
	}
}

// TestGoodTokensAreAccepted checks the tokens the forgeries are made
// from are accepted, so each forgery test fails for its forgery alone.
func TestGoodTokensAreAccepted(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	ec := newECKey(t, "e1")
	iss := oidctest.NewIssuer(t, key, ec)
	v, clock := testVerifier(t, iss, Options{Audiences: []string{"api://dagu-gateway"}, Scopes: []string{"dagu.read"}})
	now := clock.Now()
	good := goodClaims(iss.URL, now)
	cases := []struct {
		name  string
		token string
	}{
		{"RS256", mint(t, key, good)},
		{"ES256", mint(t, ec, good)},
		{"audience list", mint(t, key, with(good, map[string]any{"aud": []string{"other", testResource}}))},
		{"audience with a trailing slash", mint(t, key, with(good, map[string]any{"aud": testResource + "/"}))},
		{"configured audience", mint(t, key, with(good, map[string]any{"aud": "api://dagu-gateway"}))},
		{"expired within the skew", mint(t, key, with(good, map[string]any{"exp": now.Add(-ClockSkew + time.Second).Unix()}))},
		{"valid within the skew", mint(t, key, with(good, map[string]any{"nbf": now.Add(ClockSkew - time.Second).Unix()}))},
		{"no nbf", mint(t, key, with(good, map[string]any{"nbf": nil}))},
		{"scp array", mint(t, key, with(good, map[string]any{"scope": nil, "scp": []string{"dagu.read"}}))},
		{"scp string", mint(t, key, with(good, map[string]any{"scope": nil, "scp": "dagu.read other"}))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			id, err := v.Verify(context.Background(), tc.token, testResource)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if id.Subject != "user-1" || id.Issuer != iss.URL || id.Email != "ada@example.com" {
				t.Errorf("identity %+v", id)
			}
		})
	}
}

// TestScopesAreRequired checks a token without a required scope is
// refused as insufficient_scope, not as invalid.
func TestScopesAreRequired(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	v, clock := testVerifier(t, iss, Options{Scopes: []string{"dagu.read"}})
	token := mint(t, key, with(goodClaims(iss.URL, clock.Now()), map[string]any{"scope": "openid profile"}))
	_, err := v.Verify(context.Background(), token, testResource)
	if r, ok := IsRefusal(err); !ok || r.Kind != InsufficientScope || !strings.Contains(r.Reason, "dagu.read") {
		t.Fatalf("Verify = %v, want insufficient scope naming dagu.read", err)
	}
}

// TestIdentityClaims checks what the identity keeps of the claims: the
// groups claim by name or dotted path, an email its token says is not
// verified left out.
func TestIdentityClaims(t *testing.T) {
	t.Parallel()
	key := newRSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	cases := []struct {
		name        string
		groupsClaim string
		changes     map[string]any
		groups      []string
		email       string
	}{
		{"default claim", "", nil, []string{"sre", "dev"}, "ada@example.com"},
		{"one group as a string", "", map[string]any{"groups": "sre team"}, []string{"sre team"}, "ada@example.com"},
		{"nested claim", "realm_access.roles", map[string]any{"realm_access": map[string]any{"roles": []string{"ops"}}}, []string{"ops"}, "ada@example.com"},
		{"claim whose name has dots", "https://example.com/groups", map[string]any{"https://example.com/groups": []string{"a"}}, []string{"a"}, "ada@example.com"},
		{"unverified email", "", map[string]any{"email_verified": false}, []string{"sre", "dev"}, ""},
		{"unverified email as text", "", map[string]any{"email_verified": "false"}, []string{"sre", "dev"}, ""},
		{"verified email", "", map[string]any{"email_verified": true}, []string{"sre", "dev"}, "ada@example.com"},
		{"groups not strings", "", map[string]any{"groups": []int{1, 2}}, nil, "ada@example.com"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, clock := testVerifier(t, iss, Options{GroupsClaim: tc.groupsClaim})
			id, err := v.Verify(context.Background(), mint(t, key, with(goodClaims(iss.URL, clock.Now()), tc.changes)), testResource)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(id.Groups, ",") != strings.Join(tc.groups, ",") || id.Email != tc.email {
				t.Errorf("groups %q email %q, want %q %q", id.Groups, id.Email, tc.groups, tc.email)
			}
			if id.Key() != iss.URL+"#user-1" {
				t.Errorf("key %q", id.Key())
			}
		})
	}
}

// unsigned is a token whose header names alg and kid, with a made-up
// signature.
func unsigned(t testing.TB, alg, kid string, claims map[string]any) string {
	t.Helper()
	header, _ := json.Marshal(map[string]string{"alg": alg, "kid": kid, "typ": "JWT"})
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "." + enc.EncodeToString([]byte("signature"))
}

// hmacWithPublicKey is the classic key-confusion forgery: HS256 with the
// issuer's public key (as PEM or DER) as the HMAC secret, under its key ID.
func hmacWithPublicKey(t testing.TB, key oidctest.Key, form string, claims map[string]any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(key.Signer.Public())
	if err != nil {
		t.Fatal(err)
	}
	secret := der
	if form == "PEM" {
		secret = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: secret},
		(&jose.SignerOptions{}).WithHeader(jose.HeaderKey("kid"), key.KID))
	if err != nil {
		t.Fatal(err)
	}
	return oidctest.Sign(t, signer, claims)
}

// tamper replaces the payload of token with claims, keeping its header
// and signature.
func tamper(t testing.TB, token string, claims map[string]any) string {
	t.Helper()
	parts := strings.Split(token, ".")
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
}
