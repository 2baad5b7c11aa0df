// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// startPassthrough serves a passthrough gateway (no key of its own) in
// front of a fake Dagu that accepts fakedagutest.APIKey.
func startPassthrough(t *testing.T) string {
	t.Helper()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, MCPOnlyKey: fakedagutest.MCPOnlyKey, RecordedOnly: true})
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--upstream-auth", "passthrough"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveConfig(t, cfg)
}

// TestPassthrough: each caller reads Dagu with its own key; Dagu's answer
// to a key decides what that caller gets, and nothing cached for one key
// is ever served to another.
func TestPassthrough(t *testing.T) {
	t.Parallel()
	base := startPassthrough(t)
	good := connectHTTP(t, base+"/mcp", fakedagutest.APIKey)
	bad := connectHTTP(t, base+"/mcp", "dagu_a_key_dagu_does_not_know")
	// A key Dagu knows but does not allow on REST: Dagu's own 403.
	mcpOnly := connectHTTP(t, base+"/mcp", fakedagutest.MCPOnlyKey)
	for _, args := range []string{
		`{"target":"dag_spec","name":"failing_job"}`, `{"target":"dags"}`, `{"target":"dag","name":"failing_job"}`,
		`{"target":"runs","query":"fromDate=0"}`,
		`{"target":"run","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`,
		`{"target":"run_logs","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`,
		`{"target":"step_log","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp","stepName":"explode"}`,
	} {
		if out := callTool(t, good, args); out["data"] == nil {
			t.Fatalf("valid key, %s: %v", args, out)
		}
		if out := callTool(t, bad, args); out["code"] != "unauthenticated" {
			t.Fatalf("unknown key, %s: %v (another caller's cached answer?)", args, out)
		}
		if out := callTool(t, mcpOnly, args); out["code"] != "unauthorized" {
			t.Fatalf("key without the rest_api surface, %s: %v", args, out)
		}
	}
	res, err := http.Post(base+"/mcp", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("no key: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	ready, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	ready.Body.Close()
	if ready.StatusCode != http.StatusOK {
		t.Fatalf("readyz %d: a passthrough gateway is ready when Dagu answers", ready.StatusCode)
	}
}

func TestPassthroughConfig(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--upstream-auth", "passthrough", "--auth-token", goodToken},
		{"--upstream-auth", "passthrough", "--dagu-api-key", "dagu_service_key_1234"},
		{"--upstream-auth", "sometimes"},
	} {
		cfg, err := resolveFrom(t, append([]string{"--dagu-url", "http://dagu.example"}, args...), nil)
		if err == nil {
			err = cfg.Validate(config.ModeServe, readTargets())
		}
		if err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	cfg, _ := resolveFrom(t, []string{"--dagu-url", "http://dagu.example", "--upstream-auth", "passthrough", "--listen", "0.0.0.0:8090"}, nil)
	if err := cfg.Validate(config.ModeServe, readTargets()); err != nil {
		t.Errorf("passthrough on a public address without tokens refused: %v", err)
	}
}
