// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/oidc/oidctest"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// serveWithLogs serves cfg until the test ends with every log line, debug
// included, written to logs as JSON; it returns the base URL and a stop
// that waits for serve to return.
func serveWithLogs(t *testing.T, cfg config.Config, logs *testkit.LogBuffer) (string, func()) {
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
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	go func() { done <- serveHTTP(ctx, cfg, log, mapEnv(nil), ln) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return "http://" + cfg.Listen, stop
}

// TestSignInLeavesNoTokenBehind: the access tokens of admitted, refused
// and unknown people never reach a log line (debug included), the metrics
// or the shared state; the metrics name rules, never people, and the
// per-person limits in the shared state are keyed by issuer and subject.
func TestSignInLeavesNoTokenBehind(t *testing.T) {
	t.Parallel()
	redis := redistest.Start(t)
	key := oidctest.RSAKey(t, 0, "k1")
	iss := oidctest.NewIssuer(t, key)
	policy := writePolicy(t, "rules:\n  - name: sre\n    groups: [sre]\n    targets: [dags, run]\n")
	fakeURL := func() string {
		_, u := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey, RecordedOnly: true})
		return u
	}()
	cfg, err := resolveFrom(t, []string{"--dagu-url", fakeURL, "--dagu-api-key", fakedagutest.APIKey, "--oidc-issuer", iss.URL, "--access-policy", policy,
		"--auth-token", goodToken, "--shared-state", redis.URL(), "--shared-state-timeout", "2s", "--rate-limit", "0.01", "--rate-burst", "50", "--log-level", "debug"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.LogBuffer{}
	base, stop := serveWithLogs(t, cfg, logs)
	resource := base + "/mcp"
	good := oidctest.Claims(iss.URL, resource, time.Now())
	tokens := map[string]string{
		"admitted":       key.Mint(t, good),
		"no rule":        key.Mint(t, oidctest.With(good, map[string]any{"groups": []string{"dev"}, "sub": "user-2"})),
		"wrong audience": key.Mint(t, oidctest.With(good, map[string]any{"aud": base + "/elsewhere"})),
		"expired":        key.Mint(t, oidctest.With(good, map[string]any{"exp": time.Now().Add(-time.Hour).Unix()})),
		"unknown key":    oidctest.RSAKey(t, 1, "k9").Mint(t, good),
	}
	cs := connectHTTP(t, resource, tokens["admitted"])
	for _, args := range []string{`{"target":"dags"}`, `{"target":"run","name":"failing_job","dagRunId":"latest"}`, `{"target":"runs"}`} {
		callTool(t, cs, args)
	}
	for name, token := range tokens {
		if name != "admitted" {
			if status, _ := postMCP(t, resource, token); status < 400 {
				t.Errorf("%s: status %d", name, status)
			}
		}
		postMCP(t, base+"/metrics", token) // sign-in tokens are for the MCP endpoints only
	}
	_, metrics := get(t, base+"/metrics", goodToken)
	stop()

	rdb := redis.Client()
	keys, err := rdb.Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var stored strings.Builder
	for _, k := range keys {
		stored.WriteString(k + "\n")
		if v, err := rdb.Get(context.Background(), k).Result(); err == nil {
			stored.WriteString(v + "\n")
		}
		if h, err := rdb.HGetAll(context.Background(), k).Result(); err == nil {
			for f, v := range h {
				stored.WriteString(f + "=" + v + "\n")
			}
		}
	}
	places := map[string]string{"log": logs.String(), "metrics": metrics, "shared state": stored.String()}
	for name, token := range tokens {
		header, rest, _ := strings.Cut(token, ".")
		payload, signature, _ := strings.Cut(rest, ".")
		for where, text := range places {
			for part, s := range map[string]string{"token": token, "payload": payload, "signature": signature} {
				if strings.Contains(text, s) {
					t.Errorf("the %s of the %s token is in the %s", part, name, where)
				}
			}
		}
		_ = header // every token of one key shares it: not a secret
	}
	if !strings.Contains(logs.String(), `"sub":"user-1"`) || !strings.Contains(logs.String(), `"rule":"sre"`) {
		t.Errorf("the access lines name no person or rule: %s", logs.Tail(2000))
	}
	if !strings.Contains(metrics, `rule="sre"`) || strings.Contains(metrics, "user-1") || strings.Contains(metrics, "ada@example.com") {
		t.Errorf("the metrics must name rules and no person:\n%s", grepLines(metrics, "rule="))
	}
	// The shared rate limit keys a caller by the first 128 bits of the
	// SHA-256 of its name: the person's issuer#sub.
	person := sha256.Sum256([]byte(iss.URL + "#user-1"))
	if !strings.Contains(stored.String(), ":rl:"+hex.EncodeToString(person[:16])) {
		t.Errorf("no rate limit of the person (issuer#sub) in the shared state: %q", keys)
	}
}

// grepLines is the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for l := range strings.Lines(text) {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}
