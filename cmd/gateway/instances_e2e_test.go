// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// Keys of the two fake Dagu servers behind one gateway.
const (
	prodKey    = "dagu_prod_rest_api_key_0123"
	stagingKey = "dagu_staging_rest_api_key_0123"
	// stagingToken is an inbound token limited to the staging instance.
	stagingToken = "staging-only-0123456789abcdef"
)

// recordingDagu is a fake Dagu that records the paths and bearer keys it
// received.
type recordingDagu struct {
	next  http.Handler
	mu    sync.Mutex
	keys  []string
	paths []string
}

func (d *recordingDagu) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.keys = append(d.keys, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	d.paths = append(d.paths, r.URL.Path)
	d.mu.Unlock()
	d.next.ServeHTTP(w, r)
}

// received reports whether the fake was sent the key.
func (d *recordingDagu) received(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Contains(d.keys, key)
}

// asked reports whether the fake was asked path.
func (d *recordingDagu) asked(path string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Contains(d.paths, path)
}

func startRecordingDagu(t *testing.T, o fakedagu.Options) (*recordingDagu, string) {
	t.Helper()
	d := &recordingDagu{next: fakedagu.New(o)}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return d, srv.URL
}

// twoDagus serves a gateway in front of a current fake Dagu (prod) and a
// 1.29 one (staging) through an instances file, with extra flags, and
// returns its base URL and both fakes. passthrough leaves the key files
// out: callers bring their own keys.
func twoDagus(t *testing.T, passthrough bool, args ...string) (string, *recordingDagu, *recordingDagu) {
	base, prod, staging, _ := twoDagusFile(t, passthrough, args...)
	return base, prod, staging
}

// twoDagusFile is twoDagus that also returns the instances file's path.
func twoDagusFile(t *testing.T, passthrough bool, args ...string) (string, *recordingDagu, *recordingDagu, string) {
	t.Helper()
	prod, prodURL := startRecordingDagu(t, fakedagu.Options{APIKey: prodKey, RecordedOnly: true})
	staging, stagingURL := startRecordingDagu(t, fakedagu.Options{APIKey: stagingKey, Profile: fakedagu.Profile129, RecordedOnly: true})
	dir := t.TempDir()
	file := "instances:\n"
	for _, in := range []struct{ name, url, key string }{{"prod", prodURL, prodKey}, {"staging", stagingURL, stagingKey}} {
		file += fmt.Sprintf("  - name: %s\n    url: %s\n", in.name, in.url)
		if !passthrough {
			keyFile := filepath.Join(dir, in.name+".key")
			if err := os.WriteFile(keyFile, []byte(in.key+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			file += "    apiKeyFile: " + keyFile + "\n"
		}
	}
	path := filepath.Join(dir, "instances.yaml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := resolveFrom(t, append([]string{"--instances", path}, args...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveConfig(t, cfg), prod, staging, path
}

// latestRunID reads the latest run of failing_job through an endpoint.
func latestRunID(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	out := callTool(t, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`)
	data, _ := out["data"].(map[string]any)
	id, _ := data["dagRunId"].(string)
	if id == "" {
		t.Fatalf("no run ID: %v", out)
	}
	return id
}

// TestInstancesServeEachDaguAtItsEndpoint: behind one gateway, each
// endpoint answers from its own Dagu (its own run IDs, its release's REST
// base), with its own key, and a token limited to staging is refused on
// prod.
func TestInstancesServeEachDaguAtItsEndpoint(t *testing.T) {
	t.Parallel()
	base, prod, staging := twoDagus(t, false, "--auth-token", goodToken, "--auth-token", stagingToken+" instances=staging")
	prodRun := latestRunID(t, connectHTTP(t, base+"/dagu/prod/mcp", goodToken))
	stagingRun := latestRunID(t, connectHTTP(t, base+"/dagu/staging/mcp", stagingToken))
	if prodRun == stagingRun {
		t.Fatalf("both endpoints answered run %s", prodRun)
	}
	// Each read went to its Dagu under its release's REST base (detected
	// per instance: /api/v1 on the current release, /api/v2 on 1.29).
	const latest = "/dag-runs/failing_job/latest"
	if !prod.asked("/api/v1"+latest) || prod.asked("/api/v2"+latest) || !staging.asked("/api/v2"+latest) || staging.asked("/api/v1"+latest) {
		t.Fatalf("a read went to the wrong Dagu or REST base: prod %v, staging %v", prod.paths, staging.paths)
	}
	if prod.received(stagingKey) || staging.received(prodKey) || !prod.received(prodKey) || !staging.received(stagingKey) {
		t.Fatalf("keys crossed: prod got %v, staging got %v", prod.keys, staging.keys)
	}
	for _, tt := range []struct {
		path, token string
		status      int
		body        string
	}{
		{"/dagu/prod/mcp", stagingToken, http.StatusForbidden, "not for the Dagu instance prod"},
		{"/mcp", goodToken, http.StatusNotFound, "/dagu/prod/mcp, /dagu/staging/mcp"},
		{"/dagu/dev/mcp", goodToken, http.StatusNotFound, "no Dagu instance by that name"},
	} {
		status, body := postMCP(t, base+tt.path, tt.token)
		if status != tt.status || !strings.Contains(body, tt.body) {
			t.Errorf("%s: %d %s, want %d with %q", tt.path, status, body, tt.status, tt.body)
		}
	}
	_, metrics := get(t, base+"/metrics", goodToken)
	for _, want := range []string{`dagu_instance="prod"`, `dagu_instance="staging"`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
}

// TestInstancesPassthroughKeysStayWithTheirDagu: a caller's key goes to
// the Dagu of the endpoint it was presented to and no other, and a key
// staging accepted is not known on prod.
func TestInstancesPassthroughKeysStayWithTheirDagu(t *testing.T) {
	t.Parallel()
	base, prod, staging := twoDagus(t, true, "--upstream-auth", "passthrough")
	if id := latestRunID(t, connectHTTP(t, base+"/dagu/staging/mcp", stagingKey)); id == "" {
		t.Fatal("no run on staging")
	}
	if prod.received(stagingKey) {
		t.Fatal("a key presented to staging reached prod")
	}
	onProd := callTool(t, connectHTTP(t, base+"/dagu/prod/mcp", stagingKey), `{"target":"run","name":"failing_job","dagRunId":"latest"}`)
	if onProd["code"] != "unauthenticated" {
		t.Fatalf("staging's key on prod: %v", onProd)
	}
	latestRunID(t, connectHTTP(t, base+"/dagu/prod/mcp", prodKey))
	if staging.received(prodKey) {
		t.Fatal("a key presented to prod reached staging")
	}
}

// postMCP posts an MCP ping and returns the status and body.
func postMCP(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return do(t, req, token)
}

// get sends a GET with a bearer token and returns the status and body.
func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req, token)
}

func do(t *testing.T, req *http.Request, token string) (int, string) {
	t.Helper()
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body)
}

// TestInstancesFileReloads: a changed file is served without a restart
// (the file is looked at once a second); the watcher's tests cover broken
// files and the pool's the requests in flight.
func TestInstancesFileReloads(t *testing.T) {
	t.Parallel()
	base, _, _, path := twoDagusFile(t, false, "--auth-token", goodToken)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	prodOnly, _, _ := strings.Cut(string(data), "  - name: staging")
	if err := os.WriteFile(path+".new", []byte(prodOnly), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		status, _ := postMCP(t, base+"/dagu/staging/mcp", goodToken)
		return status == http.StatusNotFound
	})
	if status, body := postMCP(t, base+"/dagu/prod/mcp", goodToken); status != http.StatusOK {
		t.Fatalf("prod after the reload: %d %s", status, body)
	}
}

// waitFor polls cond until it holds, failing the test after 10 seconds
// (a reload is looked for once a second).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("the condition never held")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
