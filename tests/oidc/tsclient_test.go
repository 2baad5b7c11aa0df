// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"
)

// tsPlan is what tsclient.mjs is told: the provider, the service
// account, where a person's browser returns to, the scope the gateway
// requires, and the visits.
type tsPlan struct {
	Issuer         string  `json:"issuer"`
	ServiceAccount string  `json:"serviceAccount"`
	Secret         string  `json:"secret"`
	RedirectURI    string  `json:"redirectUri"`
	Scope          string  `json:"scope"`
	Visits         []visit `json:"visits"`
}

// visitWithTypeScriptSDK makes the visits with the TypeScript SDK's
// client (tsclient.mjs under node --test), five minutes at most.
func visitWithTypeScriptSDK(t *testing.T, visits []visit) {
	t.Helper()
	runNode(t, "tsclient.mjs", visits)
}

// visitWithMCPRemote makes the people's visits through mcp-remote
// (mcpremote.mjs under node --test), five minutes at most.
func visitWithMCPRemote(t *testing.T, visits []visit) {
	t.Helper()
	runNode(t, "mcpremote.mjs", visits)
}

// runNode runs the test file under node --test with the plan of the
// visits, five minutes at most.
func runNode(t *testing.T, file string, visits []visit) {
	t.Helper()
	plan, err := json.Marshal(tsPlan{Issuer: idp.issuer, ServiceAccount: serviceAccount, Secret: idp.secret,
		RedirectURI: redirectURI, Scope: scope, Visits: visits})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--test", "--test-reporter=spec", file)
	cmd.Env = append(os.Environ(), "OIDC_E2E_PLAN="+string(plan))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %s: %v\n%s", file, err, out)
	}
	if testing.Verbose() {
		t.Logf("%s", out)
	}
}
