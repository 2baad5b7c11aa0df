// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/xuri/excelize/v2"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// startPassthroughWith serves a passthrough gateway in front of a fake
// Dagu and returns both.
func startPassthroughWith(t *testing.T, args ...string) (string, *fakedagu.Server) {
	t.Helper()
	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, MCPOnlyKey: fakedagutest.MCPOnlyKey, RecordedOnly: true})
	cfg, err := resolveFrom(t, append([]string{"--dagu-url", daguURL, "--upstream-auth", "passthrough"}, args...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveConfig(t, cfg), fake
}

// writeWorkbook saves a small workbook and returns its path.
func writeWorkbook(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "payroll.xlsx")
	f := excelize.NewFile()
	if err := f.SetSheetRow("Sheet1", "A1", &[]any{"name", "salary"}); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPassthroughUnverifiedCallerReadsNothing: with a bearer Dagu does not
// accept, no read of any kind is served (issue 20: bogus_token_xyz read
// the whole profile of any workbook); the reference topics stay open. A
// key Dagu accepts reads everything.
func TestPassthroughUnverifiedCallerReadsNothing(t *testing.T) {
	base, _ := startPassthroughWith(t)
	book, _ := json.Marshal(map[string]string{"target": "workbook", "path": writeWorkbook(t)})
	bogus := connectHTTP(t, base+"/mcp", "bogus_token_xyz")
	for _, args := range []string{string(book), `{"target":"dag_spec","name":"failing_job"}`, `{"uri":"dagu://dags"}`} {
		if out := callTool(t, bogus, args); out["code"] != "unauthenticated" || out["data"] != nil {
			t.Errorf("bogus key, %s: %v", args, out)
		}
	}
	if _, err := bogus.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "dagu://dags"}); err == nil {
		t.Errorf("bogus key read the dagu://dags resource")
	}
	if out := callTool(t, bogus, `{"target":"reference","name":"read-tool"}`); out["data"] == nil {
		t.Errorf("reference topics must stay open: %v", out)
	}
	good := connectHTTP(t, base+"/mcp", fakedagutest.APIKey)
	for _, args := range []string{string(book), `{"target":"dag_spec","name":"failing_job"}`} {
		if out := callTool(t, good, args); out["data"] == nil {
			t.Errorf("accepted key, %s: %v", args, out)
		}
	}
	mcpOnly := connectHTTP(t, base+"/mcp", fakedagutest.MCPOnlyKey)
	out := callTool(t, mcpOnly, `{"target":"dags"}`)
	if msg, _ := out["message"].(string); out["code"] != "unauthorized" || !strings.HasPrefix(msg, "Your Dagu API key lacks the rest_api surface; create one") {
		t.Errorf("a key without the rest_api surface must be told it is the caller's key: %v", out)
	}
}

// TestPassthroughFreshKeysNeverReadDagu: a new random key on every call
// (issue 20: 300 of 300 reached Dagu) never makes a read; only the
// address's bucket of key checks reaches Dagu.
func TestPassthroughFreshKeysNeverReadDagu(t *testing.T) {
	base, fake := startPassthroughWith(t, "--rate-limit", "1", "--rate-burst", "1")
	for i := range 30 {
		cs := connectHTTP(t, base+"/mcp", fmt.Sprintf("dagu_random_key_%04d", i))
		if out := callTool(t, cs, `{"target":"dag_spec","name":"failing_job"}`); out["data"] != nil {
			t.Fatalf("a random key read a spec: %v", out)
		}
		_ = cs.Close()
	}
	for _, r := range fake.Requests() {
		if strings.HasSuffix(r.Path, "/dags/failing_job/spec") {
			t.Fatalf("a refused key made Dagu read %s", r.Path)
		}
	}
}

// TestPassthroughMetricsAndOAuthDocuments: /metrics answers only a key
// Dagu accepted (issue 20: any bearer, even "x"), and the documents a 401
// points OAuth clients to exist in passthrough (they answered 404).
func TestPassthroughMetricsAndOAuthDocuments(t *testing.T) {
	base, _ := startPassthroughWith(t)
	get := func(path, key string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for key, want := range map[string]int{"": 401, "x": 401, "bogus_token_xyz": 401, fakedagutest.APIKey: 200} {
		if res := get("/metrics", key); res.StatusCode != want {
			t.Errorf("/metrics with key %q: %d, want %d", key, res.StatusCode, want)
		}
	}
	unauthorized := get("/mcp", "")
	if challenge := unauthorized.Header.Get("WWW-Authenticate"); !strings.Contains(challenge, "resource_metadata=") {
		t.Errorf("the 401 challenge %q does not point at the metadata", challenge)
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		if res := get(path, ""); res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200", path, res.StatusCode)
		}
	}
	res, err := http.Post(base+"/register", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	_ = json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || body["error"] != "access_denied" || !strings.Contains(body["error_description"], "Dagu API key") {
		t.Errorf("/register: %d %v, want 403 access_denied naming the Dagu key", res.StatusCode, body)
	}
}

// TestPassthroughLimitsByProvenIdentity: unverified callers from one
// address share one rate-limit bucket whatever key each sends (issue 20:
// the bucket was keyed by the fingerprint of whatever key was sent, so a
// fresh key bought a fresh bucket); a verified caller has its own.
func TestPassthroughLimitsByProvenIdentity(t *testing.T) {
	base, _ := startPassthroughWith(t, "--rate-limit", "0.001", "--rate-burst", "1")
	const reference = `{"target":"reference","name":"read-tool"}`
	if out := callTool(t, connectHTTP(t, base+"/mcp", "dagu_minted_key_0001"), reference); out["data"] == nil {
		t.Fatalf("first unverified read: %v", out)
	}
	if out := callTool(t, connectHTTP(t, base+"/mcp", "dagu_minted_key_0002"), reference); out["code"] != "resource_unavailable" {
		t.Fatalf("a second minted key from the same address got a fresh bucket: %v", out)
	}
	if out := callTool(t, connectHTTP(t, base+"/mcp", fakedagutest.APIKey), reference); out["data"] == nil {
		t.Fatalf("a verified caller is limited by the unverified bucket: %v", out)
	}
}

// TestPassthroughLimitsByWhoseKeyItIs: two credentials Dagu says are one
// user's (on 2.6 the fake's MCP-only key reads like its API key, and
// /auth/me names the recorded user for both) share one rate-limit bucket,
// as twelve logins of one user do (issue 28 #5: each login had its own).
func TestPassthroughLimitsByWhoseKeyItIs(t *testing.T) {
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{Profile: fakedagu.Profile26, APIKey: fakedagutest.APIKey, MCPOnlyKey: fakedagutest.MCPOnlyKey, RecordedOnly: true})
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--upstream-auth", "passthrough", "--rate-limit", "0.001", "--rate-burst", "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := serveConfig(t, cfg)
	const reference = `{"target":"reference","name":"read-tool"}`
	if out := callTool(t, connectHTTP(t, base+"/mcp", fakedagutest.APIKey), reference); out["data"] == nil {
		t.Fatalf("the user's first read: %v", out)
	}
	if out := callTool(t, connectHTTP(t, base+"/mcp", fakedagutest.MCPOnlyKey), reference); out["code"] != "resource_unavailable" {
		t.Fatalf("the same user's other credential got a fresh bucket: %v", out)
	}
}
