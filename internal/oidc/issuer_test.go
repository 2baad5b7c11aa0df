// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// testResource is the endpoint tokens are presented at in the tests.
const testResource = "http://127.0.0.1:8090/mcp"

// Shorter names for the test provider's helpers.
var (
	newRSAKey = oidctest.RSAKey
	newECKey  = oidctest.ECKey
	with      = oidctest.With
)

// mint signs claims with key.
func mint(t testing.TB, key oidctest.Key, claims map[string]any) string { return key.Mint(t, claims) }

// goodClaims are the claims of a token the gateway accepts at
// testResource, now being the verifier's clock.
func goodClaims(iss string, now time.Time) map[string]any {
	return oidctest.Claims(iss, testResource, now)
}

// testVerifier is a verifier of iss on a hand-moved clock; o's other
// fields are kept.
func testVerifier(t testing.TB, iss *oidctest.Issuer, o Options) (*Verifier, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(time.Unix(1_800_000_000, 0))
	o.Issuer, o.Now = iss.URL, clock.Now
	v, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v, clock
}
