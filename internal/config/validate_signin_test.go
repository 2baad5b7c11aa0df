// SPDX-License-Identifier: Apache-2.0

package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestSignInSettings: the sign-in flags and their variables resolve, lists
// from a comma-separated variable, the groups claim defaulting to groups.
func TestSignInSettings(t *testing.T) {
	t.Parallel()
	got, err := resolveFrom(t, []string{"--oidc-issuer", "https://idp.example.com/realms/team", "--oidc-audience", "api://dagu", "--oidc-audience", "gw"},
		map[string]string{"GATEWAY_ACCESS_POLICY_FILE": "/etc/gw/policy.yaml", "GATEWAY_OIDC_SCOPES": "dagu.read, openid"})
	if err != nil {
		t.Fatal(err)
	}
	if got.OIDCIssuer != "https://idp.example.com/realms/team" || got.AccessPolicyFile != "/etc/gw/policy.yaml" || got.OIDCGroupsClaim != "groups" ||
		!reflect.DeepEqual(got.OIDCAudiences, []string{"api://dagu", "gw"}) || !reflect.DeepEqual(got.OIDCScopes, []string{"dagu.read", "openid"}) || !got.SignIn() {
		t.Fatalf("config %+v", got)
	}
	env, err := resolveFrom(t, nil, map[string]string{"GATEWAY_OIDC_ISSUER": "http://127.0.0.1:9000", "GATEWAY_OIDC_AUDIENCES": "a,b",
		"GATEWAY_OIDC_GROUPS_CLAIM": "realm_access.roles"})
	if err != nil {
		t.Fatal(err)
	}
	if env.OIDCIssuer != "http://127.0.0.1:9000" || env.OIDCGroupsClaim != "realm_access.roles" || !reflect.DeepEqual(env.OIDCAudiences, []string{"a", "b"}) {
		t.Fatalf("config from the environment %+v", env)
	}
}

// TestSignInValidation: each sign-in mistake is refused with a message
// naming the flag and what to do; a good configuration passes, on a
// non-loopback listen address without static tokens too.
func TestSignInValidation(t *testing.T) {
	t.Parallel()
	policy := writeTestFile(t, "policy.yaml", "rules: []\n")
	signIn := func(c *Config) { c.OIDCIssuer, c.AccessPolicyFile = "https://idp.example.com", policy }
	tests := []struct {
		name string
		edit func(*Config)
		want []string // "" for none: every error message must contain each
	}{
		{"good", signIn, nil},
		{"loopback http issuer", func(c *Config) { signIn(c); c.OIDCIssuer = "http://localhost:8080/realms/x" }, nil},
		{"public listen without static tokens", func(c *Config) { signIn(c); c.Listen = "0.0.0.0:8090" }, nil},
		{"static tokens beside sign-in", func(c *Config) { signIn(c); c.AuthTokens = []string{"a-static-token-of-16+"} }, nil},
		{"issuer without a policy", func(c *Config) { signIn(c); c.AccessPolicyFile = "" }, []string{"--oidc-issuer needs --access-policy", "GATEWAY_ACCESS_POLICY_FILE"}},
		{"policy without an issuer", func(c *Config) { c.AccessPolicyFile = policy }, []string{"--access-policy needs --oidc-issuer", "GATEWAY_OIDC_ISSUER"}},
		{"audience without an issuer", func(c *Config) { c.OIDCAudiences = []string{"api://x"} }, []string{"--oidc-audience needs --oidc-issuer"}},
		{"scope without an issuer", func(c *Config) { c.OIDCScopes = []string{"dagu.read"} }, []string{"--oidc-scope needs --oidc-issuer"}},
		{"policy file missing", func(c *Config) { signIn(c); c.AccessPolicyFile = policy + ".missing" }, []string{"--access-policy", "no such file"}},
		{"http issuer not on loopback", func(c *Config) { signIn(c); c.OIDCIssuer = "http://idp.example.com" }, []string{"--oidc-issuer", "use https", "GATEWAY_OIDC_ISSUER"}},
		{"issuer with a query", func(c *Config) { signIn(c); c.OIDCIssuer = "https://idp.example.com/?x=1" }, []string{"--oidc-issuer", "query"}},
		{"issuer without a scheme", func(c *Config) { signIn(c); c.OIDCIssuer = "idp.example.com" }, []string{"--oidc-issuer", "scheme"}},
		{"passthrough", func(c *Config) { signIn(c); c.UpstreamAuth = UpstreamAuthPassthrough }, []string{"passthrough are two modes"}},
		{"empty groups claim", func(c *Config) { signIn(c); c.OIDCGroupsClaim = "" }, []string{"--oidc-groups-claim"}},
		{"scope with a quote", func(c *Config) { signIn(c); c.OIDCScopes = []string{`dagu"read`} }, []string{"--oidc-scope", "RFC 6749"}},
		{"audience with a space", func(c *Config) { signIn(c); c.OIDCAudiences = []string{"api dagu"} }, []string{"--oidc-audience"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := baseConfig(t)
			tt.edit(&c)
			err := c.Validate(ModeServe, testTargets)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want an error naming %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
