// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// The recordings were made on this day; the fake's clock and the adapter's
// run window are pinned to it so goldens do not move with time.
var recordedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const testKey = "dagu_gatewaytestkey0123456789"

// harness is the whole gateway in process: fake Dagu over HTTP, the real
// REST client and adapter, the tool, and a real MCP client session over an
// in-memory transport.
type harness struct {
	fake    *fakedagu.Server
	session *mcp.ClientSession
}

func newHarness(t testing.TB, opts fakedagu.Options) *harness {
	t.Helper()
	return newHarnessWith(t, opts, restclient.Config{Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second})
}

// newHarnessWith lets a test choose the client's key, timeout and retries;
// BaseURL is filled in with the fake's. Each tool option edits the tool's
// Options before it is built.
func newHarnessWith(t testing.TB, opts fakedagu.Options, cfg restclient.Config, toolOpts ...func(*readtool.Options)) *harness {
	t.Helper()
	fake, tool := newToolOver(t, opts, cfg, toolOpts...)
	return &harness{fake: fake, session: connect(t, tool)}
}

// newToolOver builds the tool over a fresh fake Dagu, as newHarnessWith
// does, without serving it.
func newToolOver(t testing.TB, opts fakedagu.Options, cfg restclient.Config, toolOpts ...func(*readtool.Options)) (*fakedagu.Server, *readtool.Tool) {
	t.Helper()
	opts.APIKey = testKey
	if opts.Now == nil {
		opts.Now = func() time.Time { return recordedNow }
	}
	fake, baseURL := fakedagutest.Start(t, opts)
	cfg.BaseURL = baseURL
	client, err := restclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{Client: client, Now: func() time.Time { return recordedNow }, DAGCacheTTL: upstream.DefaultDAGCacheTTL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(adapter.Wait)                      // the name cache's background refreshes
	_, _ = adapter.Refresh(context.Background()) // a refused key fails it; reads still run
	fake.Reset()
	refs, err := reference.New(reference.Options{})
	if err != nil {
		t.Fatal(err)
	}
	topts := readtool.Options{Upstream: adapter, References: refs}
	for _, edit := range toolOpts {
		edit(&topts)
	}
	tool, err := readtool.New(topts)
	if err != nil {
		t.Fatal(err)
	}
	return fake, tool
}

// connect serves the tool on an MCP server and returns a client session
// talking to it over an in-memory transport.
func connect(t testing.TB, tool *readtool.Tool) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test-gateway", Version: "test"}, nil)
	tool.Register(server, nil)
	return connectServer(t, server)
}

// connectServer returns a client session talking to server over an
// in-memory transport.
func connectServer(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "test"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}

// call runs dagu_read with raw JSON arguments through the MCP client.
func (h *harness) call(t testing.TB, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: readtool.ToolName, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("protocol error for %s: %v", args, err)
	}
	return res
}

// golden compares a result with testdata/golden/<name>.json, or rewrites
// the file under -update.
func golden(t *testing.T, name, args string, res *mcp.CallToolResult) {
	t.Helper()
	got := renderResult(t, args, res)
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/readtool -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("result differs from %s (rerun with -update after checking):\n%s", path, diffHint(want, got))
	}
}

// snapshot compares doc, encoded as indented JSON, with testdata/<file>,
// or rewrites the file under -update; what names the snapshot in the
// failure message.
func snapshot(t *testing.T, file, what string, doc any) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Fatalf("the %s changed; review and run go test -update\n%s", what, diffHint(want, b.Bytes()))
	}
}

func renderResult(t *testing.T, args string, res *mcp.CallToolResult) []byte {
	t.Helper()
	doc := map[string]any{"arguments": json.RawMessage(args), "result": res}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// diffHint shows the first differing line of two texts.
func diffHint(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			return "line " + itoa(i+1) + ":\n  want: " + w[i] + "\n  got:  " + g[i]
		}
	}
	return "lengths differ: want " + itoa(len(w)) + " lines, got " + itoa(len(g))
}

func itoa(n int) string { return strconv.Itoa(n) }

// structuredOf decodes a result's structured content.
func structuredOf(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// restCalls lists the REST requests the fake saw since the last reset,
// as "GET /path?query".
func (h *harness) restCalls() []string {
	var out []string
	for _, r := range h.fake.Requests() {
		line := r.Method + " " + r.Path
		if r.RawQuery != "" {
			line += "?" + r.RawQuery
		}
		out = append(out, line)
	}
	return out
}

// checkAllowListed fails the test when the fake saw any request the
// transport guard's allow-list does not cover.
func (h *harness) checkAllowListed(t testing.TB) {
	t.Helper()
	for _, r := range h.fake.Requests() {
		rest := strings.TrimPrefix(r.Path, h.fake.APIPrefix())
		if _, ok := restclient.AllowedRoute(r.Method, rest, r.RawQuery); !ok {
			t.Errorf("the fake saw a request outside the allow-list: %s %s?%s", r.Method, r.Path, r.RawQuery)
		}
	}
}
