// SPDX-License-Identifier: Apache-2.0

//go:build instances

package instances

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

const (
	inboundToken = "instances-suite-token-0123456789"
	oldKey       = "dagu_instances_suite_old_0123456789"
	currentKey   = "dagu_instances_suite_current_0123456789"
	latestRun    = `{"target":"run","name":"failing_job","dagRunId":"latest"}`
)

// twoDagus starts a gateway with the instances old (a fake Dagu 1.29) and
// current (a fake current Dagu, or the real one of INSTANCES_DAGU_URL),
// each read with its own key, callers sending inboundToken.
func twoDagus(t *testing.T) (g *gateway, old, current *dagu) {
	t.Helper()
	old = newFake(t, fakedagu.Profile129, oldKey)
	current = currentDagu(t, currentKey)
	file := writeInstances(t, []instance{
		{name: "old", url: old.url, keyFile: writeSecret(t, old.key)},
		{name: "current", url: current.url, keyFile: writeSecret(t, current.key)},
	})
	return startGateway(t, "--instances", file, "--auth-token", inboundToken), old, current
}

// TestEachEndpointReadsItsOwnDagu: the latest run of one DAG, read at each
// endpoint, is a run of that endpoint's Dagu and not of the other (asked
// directly), each Dagu was read in its own dialect, and neither Dagu ever
// received the other's key or the caller's token.
func TestEachEndpointReadsItsOwnDagu(t *testing.T) {
	g, old, current := twoDagus(t)
	endpoints := []struct {
		name       string
		own, other *dagu
	}{{"old", old, current}, {"current", current, old}}
	ids := map[string]string{}
	for _, e := range endpoints {
		a := readAt(t, g, "/dagu/"+e.name+"/mcp", inboundToken, latestRun)
		if a.status != http.StatusOK || a.isError || a.structured == nil {
			t.Fatalf("%s: read failed: %d %.400s", e.name, a.status, a.body)
		}
		id := findString(a.structured, "dagRunId")
		if id == "" {
			t.Fatalf("%s: no dagRunId in %.400s", e.name, a.body)
		}
		ids[e.name] = id
		if !e.own.hasRun(t, "failing_job", id) {
			t.Errorf("%s answered run %s, which its own Dagu does not know", e.name, id)
		}
		if e.other.hasRun(t, "failing_job", id) {
			t.Errorf("%s answered run %s, which the other Dagu knows", e.name, id)
		}
	}
	for _, name := range []string{"old", "current"} {
		if !g.LoggedLine("mcp.tool_call.succeeded", `"instance":"`+name+`"`) {
			t.Errorf("no access log line of a read of %s with its instance", name)
		}
	}
	if ids["old"] == ids["current"] {
		t.Errorf("both endpoints answered run %s", ids["old"])
	}
	t.Logf("latest failing_job run: old %s, current %s", ids["old"], ids["current"])

	for _, d := range []*dagu{old, current} {
		if d.front == nil {
			continue // a real Dagu does not say what it received
		}
		if !d.front.sawPrefix(d.apiBase + "/dag-runs/failing_job") {
			t.Errorf("the Dagu of %s was not read under %s", d.url, d.apiBase)
		}
		if d.front.sawCredential(inboundToken) {
			t.Errorf("the Dagu of %s received the caller's inbound token", d.url)
		}
	}
	if old.front.sawPrefix("/api/v1/dag-runs") {
		t.Error("the 1.29 Dagu was read in the current dialect (/api/v1/dag-runs)")
	}
	if current.front != nil && current.front.sawPrefix("/api/v2/dag-runs") {
		t.Error("the current Dagu was read in the 1.29 dialect (/api/v2/dag-runs)")
	}
	if old.front.sawCredential(current.key) {
		t.Error("the 1.29 Dagu received the current Dagu's key")
	}
	if current.front != nil && current.front.sawCredential(old.key) {
		t.Error("the current Dagu received the 1.29 Dagu's key")
	}
}

// TestUnknownInstanceAndBareMCP: a name the file does not hold is a 404
// naming the instances; without an instance named default, so is /mcp.
func TestUnknownInstanceAndBareMCP(t *testing.T) {
	g, _, _ := twoDagus(t)
	for _, path := range []string{"/dagu/nope/mcp", "/mcp"} {
		a := readAt(t, g, path, inboundToken, latestRun)
		if a.status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404: %.300s", path, a.status, a.body)
			continue
		}
		if !strings.Contains(a.body, "/dagu/old/mcp") || !strings.Contains(a.body, "/dagu/current/mcp") {
			t.Errorf("%s: the 404 does not name the endpoints: %.300s", path, a.body)
		}
	}
}

// TestPassthroughKeyStaysWithItsInstance: in passthrough each caller's
// own key reaches only the Dagu of the endpoint it was sent to.
func TestPassthroughKeyStaysWithItsInstance(t *testing.T) {
	a := newFake(t, fakedagu.ProfileCurrent, "dagu_instances_suite_a_0123456789")
	b := newFake(t, fakedagu.Profile26, "dagu_instances_suite_b_0123456789")
	file := writeInstances(t, []instance{{name: "a", url: a.url}, {name: "b", url: b.url}})
	g := startGateway(t, "--instances", file, "--upstream-auth", "passthrough")
	for _, e := range []struct {
		name string
		own  *dagu
	}{{"a", a}, {"b", b}} {
		got := readAt(t, g, "/dagu/"+e.name+"/mcp", e.own.key, latestRun)
		if got.status != http.StatusOK || got.isError {
			t.Fatalf("%s: read with its own key failed: %d %.400s", e.name, got.status, got.body)
		}
	}
	if a.front.sawCredential(b.key) || b.front.sawCredential(a.key) {
		t.Error("a passthrough key reached the other instance's Dagu")
	}
	if !a.front.sawCredential(a.key) || !b.front.sawCredential(b.key) {
		t.Error("a Dagu never received its own caller's key: the check above proves nothing")
	}
}

// TestPassthroughMetricsNeedAKeyOfEveryInstance: /metrics carries every
// instance's series, so in passthrough a key of one instance gets a 403
// there, as a token of one instance does, and a key of none a 401 (issue
// 38: a key of a read b's series, a key of b alone got a 401).
func TestPassthroughMetricsNeedAKeyOfEveryInstance(t *testing.T) {
	a := newFake(t, fakedagu.ProfileCurrent, "dagu_instances_suite_a_0123456789")
	b := newFake(t, fakedagu.Profile26, "dagu_instances_suite_b_0123456789")
	file := writeInstances(t, []instance{{name: "a", url: a.url}, {name: "b", url: b.url}})
	g := startGateway(t, "--instances", file, "--upstream-auth", "passthrough")
	for _, tt := range []struct {
		name, key string
		want      int
	}{
		{"a key of a", a.key, http.StatusForbidden},
		{"a key of b", b.key, http.StatusForbidden},
		{"a key of neither", "dagu_instances_suite_nobody_0123456789", http.StatusUnauthorized},
	} {
		status, body := get(t, g, "/metrics", tt.key)
		if status != tt.want || strings.Contains(string(body), "dagu_instance") {
			t.Errorf("%s: %d %.300s; want %d without series", tt.name, status, body, tt.want)
		}
	}
}

// TestReadyzAndMetricsPerInstance: with one Dagu down, /readyz stays 200
// ("degraded", naming no instance to an open caller), each instance
// answers for itself at /readyz?instance=NAME, and every instance's
// metrics carry its dagu_instance label.
func TestReadyzAndMetricsPerInstance(t *testing.T) {
	old := newFake(t, fakedagu.Profile129, oldKey)
	current := currentDagu(t, currentKey)
	file := writeInstances(t, []instance{
		{name: "old", url: old.url, keyFile: writeSecret(t, old.key)},
		{name: "current", url: current.url, keyFile: writeSecret(t, current.key)},
		{name: "down", url: "http://127.0.0.1:" + gwproc.FreePort(t), keyFile: writeSecret(t, oldKey)},
	})
	g := startGateway(t, "--instances", file, "--auth-token", inboundToken)
	for _, name := range []string{"old", "current"} {
		if a := readAt(t, g, "/dagu/"+name+"/mcp", inboundToken, latestRun); a.isError || a.status != http.StatusOK {
			t.Fatalf("%s: read failed while another Dagu is down: %d %.300s", name, a.status, a.body)
		}
	}
	tests := []struct {
		path, bearer string
		want         int
		has, hasNot  []string
	}{
		{"/readyz", "", http.StatusOK, []string{`"status":"degraded"`}, []string{"old", "down"}},
		{"/readyz", inboundToken, http.StatusOK, []string{`"status":"degraded"`, `"down":{`, `"reason":"network"`, `"old":{`}, nil},
		{"/readyz?instance=down", "", http.StatusServiceUnavailable, []string{`"reason":"network"`}, nil},
		{"/readyz?instance=old", "", http.StatusOK, []string{`"status":"ready"`}, nil},
		{"/readyz?instance=nope", "", http.StatusNotFound, nil, []string{"old"}},
		{"/metrics", inboundToken, http.StatusOK, []string{`dagu_instance="old"`, `dagu_instance="current"`}, []string{`instance="`}},
	}
	for _, tt := range tests {
		status, body := get(t, g, tt.path, tt.bearer)
		text := string(body)
		if status != tt.want {
			t.Errorf("%s: status %d, want %d: %.300s", tt.path, status, tt.want, text)
		}
		for _, s := range tt.has {
			if !strings.Contains(text, s) {
				t.Errorf("%s: no %s in %.400s", tt.path, s, text)
			}
		}
		for _, s := range tt.hasNot {
			if strings.Contains(strings.ReplaceAll(text, "dagu_instance", ""), s) {
				t.Errorf("%s: %s in %.400s", tt.path, s, text)
			}
		}
	}
}
