// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"net/http"
	"slices"
	"testing"
)

// TestSignInInFrontOfOneDagu: both SDKs' clients discover the provider
// from the gateway, register, sign in (a person: authorization code with
// PKCE and the endpoint as resource; the service account: client
// credentials) and read through the rule that admits them, refused where
// it says so; someone no rule names is refused 403; each rule's reads
// reach Dagu with the rule's key; the log names the caller and the rule
// and holds no token.
func TestSignInInFrontOfOneDagu(t *testing.T) {
	s := startSingle(t)
	endpoint := s.gw.Base + "/mcp"
	plan := singlePlan(s.gw.Base)
	checkDiscovery(t, s.gw.Base, endpoint)
	var tokens []string
	t.Run("go-sdk", func(t *testing.T) {
		for _, v := range plan {
			t.Run(v.Name, func(t *testing.T) { tokens = append(tokens, visitWithGoSDK(t, v)) })
		}
	})
	t.Run("audiences", func(t *testing.T) {
		// A person's client asked for the endpoint (RFC 8707); the go-sdk's
		// client-credentials handler names no resource, so the provider
		// gave the service account's own audience (--oidc-audience).
		if got := audience(t, tokens[0]); !slices.Equal(got, []string{endpoint}) {
			t.Errorf("alice's token is for %v, want %s", got, endpoint)
		}
		if got := audience(t, tokens[3]); !slices.Equal(got, []string{serviceAudience}) {
			t.Errorf("the service account's token is for %v, want %s", got, serviceAudience)
		}
	})
	t.Run("typescript-sdk", func(t *testing.T) { visitWithTypeScriptSDK(t, plan) })
	t.Run("mcp-remote", func(t *testing.T) { visitWithMCPRemote(t, plan) })
	t.Run("a token without the scope is refused 403 insufficient_scope", func(t *testing.T) {
		expectRefused(t, endpoint, serviceToken(t, endpoint), http.StatusForbidden, "insufficient_scope")
	})
	t.Run("a token for another resource is refused 401 invalid_token", func(t *testing.T) {
		other := s.gw.Base + "/dagu/elsewhere/mcp"
		expectRefused(t, endpoint, serviceToken(t, other, scope), http.StatusUnauthorized, "invalid_token")
	})
	s.checkDagus(t, plan)
	s.checkLog(t, plan, tokens...)
}
