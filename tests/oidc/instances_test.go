// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"net/http"
	"slices"
	"testing"
)

// TestSignInInFrontOfTwoInstances: with --instances, each endpoint is its
// own resource: both SDKs' clients sign in at each endpoint for that
// endpoint, and the rules decide per instance; a token for east is
// refused at west (its audience is east), and each instance's reads carry
// the rule's key for that instance.
func TestSignInInFrontOfTwoInstances(t *testing.T) {
	s := startInstances(t)
	east, west := s.gw.Base+"/dagu/east/mcp", s.gw.Base+"/dagu/west/mcp"
	plan := instancesPlan(s.gw.Base)
	checkDiscovery(t, s.gw.Base, east)
	checkDiscovery(t, s.gw.Base, west)
	var tokens []string
	t.Run("go-sdk", func(t *testing.T) {
		for _, v := range plan {
			t.Run(v.Name, func(t *testing.T) { tokens = append(tokens, visitWithGoSDK(t, v)) })
		}
		if len(tokens) < 2 || !slices.Equal(audience(t, tokens[0]), []string{east}) || !slices.Equal(audience(t, tokens[1]), []string{west}) {
			t.Fatal("alice's tokens are not one for east and one for west")
		}
		t.Run("a token for east is refused at west", func(t *testing.T) {
			expectRefused(t, west, tokens[0], http.StatusUnauthorized, "invalid_token")
		})
	})
	t.Run("typescript-sdk", func(t *testing.T) { visitWithTypeScriptSDK(t, plan) })
	t.Run("a service token for east is refused at west", func(t *testing.T) {
		expectRefused(t, west, serviceToken(t, east, scope), http.StatusUnauthorized, "invalid_token")
	})
	s.checkDagus(t, plan)
	s.checkLog(t, plan, tokens...)
}
