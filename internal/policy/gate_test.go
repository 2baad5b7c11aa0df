// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

const resource = "http://127.0.0.1:8090/mcp"

// gatePolicy is teamPolicy for a gateway of instances.
const gatePolicy = `rules:
  - name: sre
    groups: [sre]
    targets: ["*"]
    daguApiKeyFile: {default: sre.key}
  - name: dev-runs
    groups: [dev]
    scopes: [dagu.read]
    targets: [dags, runs, run]
  - name: contractors
    emails: ["*@contractor.example"]
    instances: [staging]
    targets: [dags]
  - name: everyone
    subjects: ["*"]
    targets: [reference]
`

// gate is a gate over an issuer in the test process and the policy text.
func gate(t *testing.T, iss *oidctest.Issuer, text string, scopes ...string) (*Gate, *prometheus.Registry) {
	t.Helper()
	dir := writeKeys(t, "sre.key")
	path := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	live, err := Watch(Options{Path: path, Targets: targets, Instances: true})
	if err != nil {
		t.Fatal(err)
	}
	v, err := oidc.New(oidc.Options{Issuer: iss.URL, Scopes: scopes})
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	g, err := NewGate(v, live, reg)
	if err != nil {
		t.Fatal(err)
	}
	return g, reg
}

func TestGateAdmitsByRule(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	g, _ := gate(t, iss, gatePolicy, "dagu.read")
	good := oidctest.Claims(iss.URL, resource, time.Now())
	cases := []struct {
		name    string
		token   string
		outcome Outcome
		rule    string
		key     string
	}{
		{"sre", key.Mint(t, good), Admitted, "sre", "key-of-sre.key"},
		{"dev without a key of its own", key.Mint(t, oidctest.With(good, map[string]any{"groups": []string{"dev"}})), Admitted, "dev-runs", ""},
		{"no scope", key.Mint(t, oidctest.With(good, map[string]any{"scope": "openid"})), InsufficientScope, "", ""},
		{"anyone else", key.Mint(t, oidctest.With(good, map[string]any{"groups": nil, "email": "x@elsewhere.example"})), Admitted, "everyone", ""},
		{"forged", oidctest.ECKey(t, "k1").Mint(t, good), InvalidToken, "", ""},
		{"not a JWT", "static-token-0123456789", InvalidToken, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := g.Admit(context.Background(), tc.token, resource, "default")
			rule := ""
			if a.Rule != nil {
				rule = a.Rule.Name
			}
			if a.Outcome != tc.outcome || rule != tc.rule || a.Key != tc.key {
				t.Fatalf("admission %+v (rule %q), want %s %q key %q", a, rule, tc.outcome, tc.rule, tc.key)
			}
			if a.Shaped != (tc.name != "not a JWT") {
				t.Errorf("shaped %v", a.Shaped)
			}
		})
	}
	strict, reg := gate(t, iss, "rules:\n  - name: sre\n    groups: [sre]\n    targets: [dags]\n")
	a := strict.Admit(context.Background(), key.Mint(t, oidctest.With(good, map[string]any{"groups": []string{"dev"}})), resource, "default")
	if a.Outcome != NoRule || a.Identity.Subject != "user-1" {
		t.Fatalf("no rule: %+v", a)
	}
	strict.Admit(context.Background(), key.Mint(t, good), resource, "default")
	if got := testutil.ToFloat64(strict.decisions.WithLabelValues("none", "no_rule")); got != 1 {
		t.Errorf("no_rule decisions %v", got)
	}
	if got := testutil.ToFloat64(strict.decisions.WithLabelValues("sre", "admitted")); got != 1 {
		t.Errorf("admitted by sre %v", got)
	}
	if n, err := testutil.GatherAndCount(reg, "dagu_gateway_signin_decisions_total"); err != nil || n != 2 {
		t.Errorf("series %d, %v", n, err)
	}
}

func TestGateWithoutKeysIsUnavailable(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	iss.Down.Store(true)
	g, _ := gate(t, iss, gatePolicy)
	if a := g.Admit(context.Background(), key.Mint(t, oidctest.Claims(iss.URL, resource, time.Now())), resource, "default"); a.Outcome != Unavailable {
		t.Fatalf("admission %+v", a)
	}
}

// TestGateRefusesAKeylessRuleWhereTheInstanceHasNoKey: on an instance
// without a key of its own, a person whose rule names none is refused
// rather than lent the key of the rule the gateway's own calls use; on
// one with a key, they read with it.
func TestGateRefusesAKeylessRuleWhereTheInstanceHasNoKey(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	g, _ := gate(t, iss, gatePolicy)
	g.RefuseKeyless(func(instance string) bool { return instance == "staging" })
	dev := key.Mint(t, oidctest.With(oidctest.Claims(iss.URL, resource, time.Now()), map[string]any{"groups": []string{"dev"}}))
	if a := g.Admit(context.Background(), dev, resource, "default"); a.Outcome != Unavailable || a.Rule == nil || a.Rule.Name != "dev-runs" || a.Key != "" {
		t.Fatalf("a keyless rule on an instance without a key: %+v", a)
	}
	if a := g.Admit(context.Background(), dev, resource, "staging"); a.Outcome != Admitted || a.Key != "" {
		t.Fatalf("a keyless rule on an instance with its own key: %+v", a)
	}
	p := g.live.Policy()
	if got := p.Keyless("default"); strings.Join(got, ",") != "dev-runs,everyone" {
		t.Errorf("keyless rules of default %q", got)
	}
	if got := p.Keyless("staging"); got != nil {
		t.Errorf("keyless rules of staging, where no rule names a key: %q", got)
	}
	if r := p.ServiceRule("default"); r == nil || r.Name != "sre" {
		t.Errorf("service rule %v", r)
	}
}
