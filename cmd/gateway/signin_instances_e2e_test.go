// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
)

// signInPolicy is the access policy of the two instances prod and staging,
// neither of which has a key of its own: sre reads everything everywhere
// with each Dagu's key, dev reads the lists of staging only.
const signInPolicy = `rules:
  - name: sre
    groups: [sre]
    targets: ["*"]
    daguApiKeyFile: {prod: prod.key, staging: staging.key}
  - name: dev
    groups: [dev]
    instances: [staging]
    targets: [dags, runs]
    daguApiKeyFile: {staging: staging.key}
`

// TestSignInEndToEnd runs sign-in through the whole gateway of two
// instances: each person reads with their rule's key for the instance
// addressed, a target the rule leaves out is refused and never offered,
// a token is good only at the endpoint it was issued for, a person no
// rule covers there gets 403, and a static token works beside it all.
func TestSignInEndToEnd(t *testing.T) {
	t.Parallel()
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	policy := writePolicy(t, signInPolicy)
	for name, k := range map[string]string{"prod.key": prodKey, "staging.key": stagingKey} {
		if err := os.WriteFile(filepath.Join(filepath.Dir(policy), name), []byte(k+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base, prod, staging, _ := twoDagusFile(t, true, "--oidc-issuer", iss.URL, "--access-policy", policy, "--auth-token", goodToken)
	prodURL, stagingURL := base+"/dagu/prod/mcp", base+"/dagu/staging/mcp"
	mint := func(resource string, groups ...string) string {
		return key.Mint(t, oidctest.With(oidctest.Claims(iss.URL, resource, time.Now()), map[string]any{"groups": groups}))
	}

	t.Run("metadata per endpoint", func(t *testing.T) {
		for _, endpoint := range []string{prodURL, stagingURL} {
			status, body := get(t, base+"/.well-known/oauth-protected-resource"+strings.TrimPrefix(endpoint, base), "")
			if status != 200 || !strings.Contains(body, `"resource":"`+endpoint+`"`) || !strings.Contains(body, iss.URL) {
				t.Errorf("metadata of %s: %d %s", endpoint, status, body)
			}
		}
	})
	t.Run("sre reads each instance with its key", func(t *testing.T) {
		for _, endpoint := range []string{prodURL, stagingURL} {
			cs := connectHTTP(t, endpoint, mint(endpoint, "sre"))
			if out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`); out["target"] != "run" {
				t.Fatalf("%s: %v", endpoint, out)
			}
		}
		if !prod.received(prodKey) || !staging.received(stagingKey) || prod.received(stagingKey) || staging.received(prodKey) {
			t.Error("a Dagu was sent another's key, or not its own")
		}
	})
	t.Run("a token is for its endpoint only", func(t *testing.T) {
		status, body := postMCP(t, stagingURL, mint(prodURL, "sre"))
		if status != 401 || !strings.Contains(body, "invalid_token") {
			t.Fatalf("prod's token at staging: %d %s", status, body)
		}
	})
	t.Run("dev reads staging's lists only", func(t *testing.T) {
		cs := connectHTTP(t, stagingURL, mint(stagingURL, "dev"))
		if out := callTool(t, cs, `{"target":"dags"}`); out["target"] != "dags" {
			t.Fatalf("dags: %v", out)
		}
		out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`)
		if out["code"] != "unauthorized" || !strings.Contains(out["message"].(string), "access rule dev") {
			t.Fatalf("run for dev: %v", out)
		}
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "dagu://dags/failing_job/spec"})
		if err == nil || !strings.Contains(err.Error(), "access rule dev") {
			t.Fatalf("resources/read of a forbidden URI: %v", err)
		}
		checkOffersOnly(t, cs, []string{"dags", "runs"})
	})
	t.Run("no rule covers dev at prod", func(t *testing.T) {
		status, body := postMCP(t, prodURL, mint(prodURL, "dev"))
		if status != 403 || !strings.Contains(body, "no rule of this gateway's access policy") || !strings.Contains(body, "/dagu/prod/mcp") {
			t.Fatalf("dev at prod: %d %s", status, body)
		}
	})
	t.Run("a static token beside sign-in", func(t *testing.T) {
		cs := connectHTTP(t, prodURL, goodToken)
		if out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`); out["target"] != "run" {
			t.Fatalf("static token: %v", out)
		}
	})
	if prod.received("") || staging.received("") {
		t.Error("a call reached a Dagu without a key")
	}
}

// checkOffersOnly fails unless the tool's target enum, resources/list,
// resources/templates/list and prompts/list offer nothing outside allowed
// (and the reference topics, open to everyone).
func checkOffersOnly(t *testing.T, cs *mcp.ClientSession, allowed []string) {
	t.Helper()
	ctx := context.Background()
	open := append(slices.Clone(allowed), "reference", "references")
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := json.Marshal(tools.Tools[0].InputSchema)
	var s struct {
		Properties struct {
			Target struct {
				Enum []string `json:"enum"`
			} `json:"target"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil || len(s.Properties.Target.Enum) == 0 {
		t.Fatalf("no target enum in %s (%v)", schema, err)
	}
	for _, target := range s.Properties.Target.Enum {
		if !slices.Contains(open, target) {
			t.Errorf("tools/list offers the target %s", target)
		}
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources.Resources {
		if !strings.HasPrefix(r.URI, "dagu://dags") && !strings.HasPrefix(r.URI, "dagu://runs") && !strings.HasPrefix(r.URI, "dagu://reference") && !strings.HasPrefix(r.URI, "ui://") {
			t.Errorf("resources/list offers %s", r.URI)
		}
	}
	if !slices.ContainsFunc(resources.Resources, func(r *mcp.Resource) bool { return r.URI == "dagu://runs" }) {
		t.Error("resources/list leaves out dagu://runs, which the rule allows")
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tmpl := range templates.ResourceTemplates {
		if strings.Contains(tmpl.URITemplate, "/spec") || strings.Contains(tmpl.URITemplate, "/steps/") || strings.Contains(tmpl.URITemplate, "workbook") {
			t.Errorf("resources/templates/list offers %s", tmpl.URITemplate)
		}
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts.Prompts) != 0 {
		t.Errorf("prompts/list offers %d prompts that read forbidden targets", len(prompts.Prompts))
	}
}
