// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// startServe runs `serve` in process against a fake Dagu on a loopback
// listener and returns the gateway's base URL.
func startServe(t *testing.T, fakeOpts fakedagu.Options, args ...string) string {
	t.Helper()
	fakeOpts.APIKey = fakedagutest.APIKey
	_, daguURL := fakedagutest.Start(t, fakeOpts)
	cfg, err := resolveFrom(t, append([]string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey}, args...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveConfig(t, cfg)
}

// serveConfig serves cfg on a free loopback port until the test ends and
// returns the gateway's base URL.
func serveConfig(t *testing.T, cfg config.Config) string {
	t.Helper()
	base, _ := serveConfigStoppable(t, cfg, mapEnv(nil))
	return base
}

// serveConfigStoppable is serveConfig with a stop function for tests that
// need the server gone before they end (to flush what it exports), with
// getenv as the environment (the OTEL_* variables); stop is idempotent and
// also runs at cleanup.
func serveConfigStoppable(t *testing.T, cfg config.Config, getenv func(string) string) (base string, stop func()) {
	t.Helper()
	return serveConfigLogged(t, cfg, getenv, slog.New(slog.DiscardHandler))
}

// serveConfigLogged is serveConfigStoppable with the gateway's logger.
func serveConfigLogged(t *testing.T, cfg config.Config, getenv func(string) string, log *slog.Logger) (base string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listen = ln.Addr().String()
	if err := cfg.Validate(config.ModeServe, readTargets()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, cfg, log, getenv, ln) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve returned %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return "http://" + cfg.Listen, stop
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(t *testing.T, endpoint, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "test"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := client.Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, args string) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestServeOverStreamableHTTP runs the whole gateway: real MCP client over
// loopback HTTP with an inbound token, the front door, the stateless SDK
// handler, the tool, the REST client and a fake Dagu.
func TestServeOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	cs := connectHTTP(t, base+"/mcp", goodToken)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "dagu_read" || !tools.Tools[0].Annotations.ReadOnlyHint {
		t.Fatalf("tools/list = %+v, %v", tools, err)
	}
	for args, want := range map[string]string{
		`{"target":"dags"}`: "dags",
		`{"target":"run","name":"failing_job","dagRunId":"latest"}`:                             "run",
		`{"target":"wiki_page","workspace":"ops","path":"oncall/handbook"}`:                     "wiki_page",
		`{"uri":"dagu://runs/failing_job/0356UUn8VwcWFuh5L8qwbp/steps/explode/logs"}`:           "step_log",
		`{"target":"foreach_items","name":"foreach_job","dagRunId":"latest","stepName":"each"}`: "foreach_items",
	} {
		if out := callTool(t, cs, args); out["target"] != want || out["data"] == nil {
			t.Fatalf("%s: %v", args, out)
		}
	}
	if out := callTool(t, cs, `{"target":"run_logs"}`); out["code"] != "invalid_tool_input" {
		t.Fatalf("bad input answered %v", out)
	}
}

func TestServeRefusesMissingOrWrongToken(t *testing.T) {
	t.Parallel()
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, token := range []string{"", "wrong-token-wrong-token-wrong"} {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("token %q: status %d", token, res.StatusCode)
		}
	}
}

func TestReadinessReportsReasonWithoutSecrets(t *testing.T) {
	t.Parallel()
	get := func(url string) (int, map[string]any) {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body
	}
	ok := startServe(t, fakedagu.Options{RecordedOnly: true})
	if status, body := get(ok + "/readyz"); status != 200 || body["status"] != "ready" {
		t.Fatalf("readyz = %d %v", status, body)
	}
	if status, _ := get(ok + "/healthz"); status != 200 {
		t.Fatalf("healthz = %d", status)
	}
	surface := startServe(t, fakedagu.Options{RecordedOnly: true, MCPOnlyKey: "dagu_mcp_only_key_for_this_test"},
		"--dagu-api-key", "dagu_mcp_only_key_for_this_test")
	status, body := get(surface + "/readyz")
	raw, _ := json.Marshal(body)
	if status != 503 || body["reason"] != "surface" || body["detail"] != nil || strings.Contains(string(raw), "dagu_mcp_only_key") {
		t.Fatalf("readyz with an mcp-only key = %d %s", status, raw)
	}
}

// TestStdio serves the tool over in-process pipes to a real MCP client.
func TestStdio(t *testing.T) {
	t.Parallel()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, RecordedOnly: true})
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"stdio", "--dagu-url", daguURL, "--log-level", "error"}, environment{
			stdin: serverIn, stdout: serverOut, stderr: io.Discard,
			getenv: func(k string) string { return map[string]string{"DAGU_API_KEY": fakedagutest.APIKey}[k] },
		})
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-e2e", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out := callTool(t, cs, `{"target":"dag","name":"failing_job"}`); out["target"] != "dag" {
		t.Fatalf("stdio call: %v", out)
	}
	_ = cs.Close()
	cancel()
	_ = serverIn.Close()
	// No deadline of its own: on a loaded machine any fixed one can pass;
	// a gateway that does not stop fails the test at go test's timeout,
	// with every goroutine's stack.
	if code := <-done; code != 0 {
		t.Fatalf("stdio exited %d", code)
	}
}
