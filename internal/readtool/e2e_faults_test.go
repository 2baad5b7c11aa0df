// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestUpstreamFaults drives real HTTP failures through the client, adapter
// and tool, and checks the contract code each one becomes. The client has
// a short deadline; a fault that outlives it must come back as
// resource_unavailable instead of hanging.
func TestUpstreamFaults(t *testing.T) {
	t.Parallel()
	const run = `{"target":"run","name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`
	const route = "/dag-runs/{name}/{dagRunId}"
	tests := []struct {
		name  string
		fault fakedagu.Fault
		code  string
	}{
		{"slow upstream", fakedagu.Fault{Route: route, Latency: 2 * time.Second}, "resource_unavailable"},
		{"connection reset", fakedagu.Fault{Route: route, Reset: true}, "resource_unavailable"},
		{"truncated body", fakedagu.Fault{Route: route, Truncate: true}, "resource_unavailable"},
		{"oversized body", fakedagu.Fault{Route: route, Oversize: 8 << 20}, "resource_unavailable"},
		{"malformed body", fakedagu.Fault{Route: route, Malformed: true}, "internal_error"},
		{"200 null", fakedagu.Fault{Route: route, Status: 200, Body: "null", ContentType: "application/json"}, "internal_error"},
		{"200 HTML", fakedagu.Fault{Route: route, Status: 200, Body: "<html><body>Dagu</body></html>"}, "internal_error"},
		{"503 persists", fakedagu.Fault{Route: route, Status: 503}, "resource_unavailable"},
		{"504 from Dagu", fakedagu.Fault{Route: route, Status: 504, Body: `{"code":"timeout","message":"dag-run details request timed out"}`}, "resource_unavailable"},
		{"429 persists", fakedagu.Fault{Route: route, Status: 429, RetryAfter: "0"}, "resource_unavailable"},
		{"500", fakedagu.Fault{Route: route, Status: 500}, "internal_error"},
		{"503 once then fine", fakedagu.Fault{Route: route, Status: 503, Times: 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWith(t, fakedagu.Options{RecordedOnly: true}, restclient.Config{
				Key: restclient.StaticKey(testKey), Timeout: 500 * time.Millisecond, MaxResponseBytes: 1 << 20,
			})
			h.fake.Inject(tt.fault)
			out := structuredOf(t, h.call(t, run))
			if tt.code == "" {
				if _, failed := out["code"]; failed {
					t.Fatalf("a single 503 should be retried: %v", out)
				}
				return
			}
			if out["code"] != tt.code || out["target"] != "run" {
				t.Fatalf("got %v, want code %s", out, tt.code)
			}
			if msg, _ := out["message"].(string); strings.Contains(msg, "HTTP 0") {
				t.Fatalf("message %q names no real status", msg)
			}
		})
	}
}

// TestUpstreamCredentials checks the auth rows of the status table with the
// fake's real 401 and surface-403 answers.
func TestUpstreamCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, code string
	}{
		{"wrong key", "dagu_wrong_key_for_this_fake", "unauthenticated"},
		{"no key", "", "unauthenticated"},
		{"key without rest_api surface", "dagu_mcp_only_key_of_the_fake", "unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWith(t, fakedagu.Options{RecordedOnly: true, MCPOnlyKey: "dagu_mcp_only_key_of_the_fake"},
				restclient.Config{Key: restclient.StaticKey(tt.key), Timeout: 2 * time.Second})
			out := structuredOf(t, h.call(t, `{"target":"dags"}`))
			if out["code"] != tt.code {
				t.Fatalf("got %v, want %s", out, tt.code)
			}
		})
	}
}
