// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// stack is one gateway that trusts the provider, with its policy and the
// fake Dagus behind it (by instance; "" without --instances).
type stack struct {
	gw     *gwproc.Process
	dagus  map[string]*dagu
	policy string // the policy file's path
}

// singlePolicy is the policy in front of one Dagu: two rules for people
// with different targets, and one for the service account.
const singlePolicy = `rules:
  - name: sre
    groups: [sre]
    targets: ["*"]
    daguApiKeyFile: sre.key
  - name: analysts
    groups: [analysts]
    targets: [dags, dag]
    daguApiKeyFile: analysts.key
  - name: ci
    subjects: [` + serviceAccount + `]
    targets: [runs, run]
    daguApiKeyFile: ci.key
`

// instancesPolicy is the policy in front of two instances, east and west:
// sre reads both, analysts east only, the service account west only; each
// with a key of its own per instance.
const instancesPolicy = `rules:
  - name: sre
    groups: [sre]
    instances: ["*"]
    targets: ["*"]
    daguApiKeyFile:
      east: sre-east.key
      west: sre-west.key
  - name: analysts
    groups: [analysts]
    instances: [east]
    targets: [dags, dag]
    daguApiKeyFile:
      east: analysts-east.key
  - name: ci
    subjects: [` + serviceAccount + `]
    instances: [west]
    targets: [runs, run]
    daguApiKeyFile:
      west: ci-west.key
`

// rules are the policies' rule names, each with a Dagu key.
var rules = []string{"sre", "analysts", "ci"}

// startSingle runs a gateway in front of one fake Dagu with singlePolicy.
func startSingle(t *testing.T) *stack {
	t.Helper()
	dir := t.TempDir()
	d := newDagu(t, rules...)
	for _, r := range rules {
		d.keyFile(t, dir, r+".key", r)
	}
	policy := writeFile(t, dir, "policy.yaml", singlePolicy)
	gw := startGateway(t, "--dagu-url", d.url, "--access-policy", policy)
	return &stack{gw: gw, dagus: map[string]*dagu{"": d}, policy: policy}
}

// startInstances runs a gateway in front of two fake Dagus, east and
// west, with instancesPolicy.
func startInstances(t *testing.T) *stack {
	t.Helper()
	dir := t.TempDir()
	s := &stack{dagus: map[string]*dagu{}}
	var list strings.Builder
	list.WriteString("instances:\n")
	for _, name := range []string{"east", "west"} {
		d := newDagu(t, rules...)
		for _, r := range rules {
			d.keyFile(t, dir, r+"-"+name+".key", r)
		}
		own := writeFile(t, dir, name+".key", d.own+"\n")
		fmt.Fprintf(&list, "  - name: %s\n    url: %s\n    apiKeyFile: %s\n", name, d.url, own)
		s.dagus[name] = d
	}
	instances := writeFile(t, dir, "instances.yaml", list.String())
	policy := writeFile(t, dir, "policy.yaml", instancesPolicy)
	s.gw = startGateway(t, "--instances", instances, "--access-policy", policy)
	s.policy = policy
	return s
}

// startGateway runs the gateway with the provider as its issuer, the
// scope required and the service account's audience accepted, in an
// environment without the developer's DAGU_* and GATEWAY_* settings.
func startGateway(t *testing.T, args ...string) *gwproc.Process {
	t.Helper()
	args = append(args, "--oidc-issuer", idp.issuer, "--oidc-scope", scope, "--oidc-audience", serviceAudience)
	return gwproc.Start(t, gwproc.Options{Bin: gatewayBin, Args: args, Env: cleanEnv()})
}

// cleanEnv is this process's environment without DAGU_* and GATEWAY_*.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DAGU_") && !strings.HasPrefix(kv, "GATEWAY_") {
			env = append(env, kv)
		}
	}
	return env
}

// writeFile writes text to name in dir, readable by the owner only, and
// returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
