// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// writePolicy writes an access policy file and returns its path.
func writePolicy(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "access-policy.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestServeWiresSignIn: serve --oidc-issuer --access-policy verifies the
// provider's tokens at /mcp, names the provider in the metadata and gives
// the person what their rule allows; a static token keeps working beside
// it.
func TestServeWiresSignIn(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	policy := writePolicy(t, "rules:\n  - name: sre\n    groups: [sre]\n    targets: [dags]\n")
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--oidc-issuer", iss.URL, "--access-policy", policy,
		"--oidc-scope", "dagu.read", "--auth-token", goodToken)

	status, body := get(t, base+"/.well-known/oauth-protected-resource/mcp", "")
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	if err := json.Unmarshal([]byte(body), &meta); status != 200 || err != nil || meta.Resource != base+"/mcp" ||
		len(meta.AuthorizationServers) != 1 || meta.AuthorizationServers[0] != iss.URL || strings.Join(meta.ScopesSupported, " ") != "dagu.read" {
		t.Fatalf("metadata %d %s", status, body)
	}

	token := key.Mint(t, oidctest.Claims(iss.URL, base+"/mcp", time.Now()))
	cs := connectHTTP(t, base+"/mcp", token)
	if out := callTool(t, cs, `{"target":"dags"}`); out["target"] != "dags" || out["data"] == nil {
		t.Fatalf("dags for the sre rule: %v", out)
	}
	if out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`); out["code"] != "unauthorized" ||
		!strings.Contains(out["message"].(string), "sre") {
		t.Fatalf("a target the rule leaves out answered %v", out)
	}
	static := connectHTTP(t, base+"/mcp", goodToken)
	if out := callTool(t, static, `{"target":"run","name":"failing_job","dagRunId":"latest"}`); out["target"] != "run" {
		t.Fatalf("the static token beside sign-in: %v", out)
	}
	if _, err := static.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// TestServeRefusesABrokenAccessPolicy: a policy file that is not good
// stops serve at start, naming the file's problem.
func TestServeRefusesABrokenAccessPolicy(t *testing.T) {
	t.Parallel()
	iss := oidctest.NewIssuer(t, oidctest.RSAKey(t, 0, "k1"))
	for name, text := range map[string]string{
		"unknown target": "rules:\n  - name: sre\n    groups: [sre]\n    targets: [queues]\n",
		"unknown field":  "rules:\n  - name: sre\n    groups: [sre]\n    targets: [\"*\"]\n    role: admin\n",
		"no rules":       "rules: []\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg, err := resolveFrom(t, []string{"--dagu-url", "http://127.0.0.1:1", "--oidc-issuer", iss.URL, "--access-policy", writePolicy(t, text)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Listen = ln.Addr().String()
			err = serveHTTP(ctx, cfg, slog.New(slog.DiscardHandler), mapEnv(nil), ln)
			if err == nil || !strings.Contains(err.Error(), "access policy") {
				t.Fatalf("serve returned %v, want the access policy's problem", err)
			}
		})
	}
}

// TestSignInWithoutAGatewayKey: with no --dagu-api-key, the gateway's own
// calls (readiness, release detection) use the key of the first rule
// that names one, and each person reads with their rule's key; a person
// whose rule names none is refused rather than lent another rule's key.
func TestSignInWithoutAGatewayKey(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	dagu, daguURL := startRecordingDagu(t, fakedagu.Options{APIKey: fakedagutest.APIKey, RecordedOnly: true})
	policy := writePolicy(t, "rules:\n  - name: sre\n    groups: [sre]\n    targets: [\"*\"]\n    daguApiKeyFile: sre.key\n"+
		"  - name: guests\n    subjects: [\"*\"]\n    targets: [dags]\n")
	if err := os.WriteFile(filepath.Join(filepath.Dir(policy), "sre.key"), []byte(fakedagutest.APIKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--oidc-issuer", iss.URL, "--access-policy", policy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := serveConfig(t, cfg)
	if status, body := get(t, base+"/readyz", ""); status != 200 {
		t.Fatalf("readiness with the rule's key: %d %s", status, body)
	}
	good := oidctest.Claims(iss.URL, base+"/mcp", time.Now())
	cs := connectHTTP(t, base+"/mcp", key.Mint(t, good))
	if out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`); out["target"] != "run" {
		t.Fatalf("the sre rule's read: %v", out)
	}
	guest := key.Mint(t, oidctest.With(good, map[string]any{"groups": nil}))
	status, body := postMCP(t, base+"/mcp", guest)
	if status != 503 || !strings.Contains(body, "guests names no Dagu key") {
		t.Fatalf("a keyless rule where the Dagu has no key: %d %s", status, body)
	}
	if dagu.received("") {
		t.Error("a call reached Dagu without a key")
	}
}
