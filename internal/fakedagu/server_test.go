// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

func TestAuthentication(t *testing.T) {
	t.Parallel()
	keyed := startAPI(t, nil)
	open := startAPI(t, func(o *fakedagu.Options) { o.APIKey = "" })
	tests := []struct {
		name, path, auth string
		a                api
		status           int
	}{
		{"no credentials", "/dags", "", keyed, http.StatusUnauthorized},
		{"basic credentials", "/dags", "Basic dXNlcjpwYXNz", keyed, http.StatusUnauthorized},
		{"empty bearer", "/dags", "Bearer ", keyed, http.StatusUnauthorized},
		{"lower-case scheme", "/dags", "bearer " + fakedagutest.APIKey, keyed, http.StatusOK},
		{"MCP-only key", "/dag-runs", "Bearer " + fakedagutest.MCPOnlyKey, keyed, http.StatusForbidden},
		{"health is public", "/health", "", keyed, http.StatusOK},
		{"unknown route still needs credentials", "/nope", "", keyed, http.StatusUnauthorized},
		{"auth mode none", "/dags", "", open, http.StatusOK},
		{"auth mode none ignores keys", "/dags", "Bearer whatever", open, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := tt.a.do(t, http.MethodGet, tt.path, tt.auth)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d", ans.status, tt.status)
			}
			if tt.status == http.StatusUnauthorized && (len(ans.body) != 0 || ans.header.Get("WWW-Authenticate") != `Bearer realm="restricted"`) {
				t.Errorf("401 must be empty with a challenge: %q %v", ans.body, ans.header)
			}
		})
	}
}

func TestRouting(t *testing.T) {
	t.Parallel()
	a := startAPI(t, func(o *fakedagu.Options) { o.BasePath = "/dagu/" })
	tests := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"base path", http.MethodGet, "/dags?perPage=1", http.StatusOK, ""},
		{"unknown route", http.MethodGet, "/queues", http.StatusNotFound, "404 page not found\n"},
		{"too deep", http.MethodGet, "/dags/a/b/c", http.StatusNotFound, "404 page not found\n"},
		{"other method", http.MethodPost, "/dags", http.StatusMethodNotAllowed, ""},
		{"HEAD is not GET", http.MethodHead, "/dag-runs", http.StatusMethodNotAllowed, ""},
		{"trailing slash redirects", http.MethodGet, "/dags/?page=2", http.StatusMovedPermanently, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.do(t, tt.method, tt.path, a.auth)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.body != "" && string(ans.body) != tt.body {
				t.Errorf("body %q, want %q", ans.body, tt.body)
			}
		})
	}
	if loc := a.do(t, http.MethodGet, "/dags/?page=2", a.auth).header.Get("Location"); loc != "/dagu/api/v1/dags?page=2" {
		t.Errorf("redirect to %q", loc)
	}
	if allow := a.do(t, http.MethodPut, "/dags", a.auth).header.Get("Allow"); allow != http.MethodGet {
		t.Errorf("Allow %q", allow)
	}
	outside := api{url: strings.TrimSuffix(a.url, "/dagu/api/v1") + "/api/v1", auth: a.auth}
	if got := outside.get(t, "/dags").status; got != http.StatusNotFound {
		t.Errorf("routes outside the base path: %d", got)
	}
}

func TestOpenAPIListsOnlyServedRecordedRoutes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "openapi-get-paths.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		OpenAPI     string   `json:"openapi"`
		InfoVersion string   `json:"infoVersion"`
		GetPaths    []string `json:"getPaths"`
	}
	if err := json.Unmarshal(raw, &recorded); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []fakedagu.ForeachMode{fakedagu.ForeachAggregate, fakedagu.ForeachRoutes} {
		a := startAPI(t, func(o *fakedagu.Options) { o.Foreach = mode })
		doc := a.get(t, "/openapi.json").object(t)
		if doc["openapi"] != recorded.OpenAPI || doc["info"].(map[string]any)["version"] != recorded.InfoVersion {
			t.Errorf("mode %d: header fields %v %v", mode, doc["openapi"], doc["info"])
		}
		foreachRoutes := 0
		for path, ops := range doc["paths"].(map[string]any) {
			if _, ok := ops.(map[string]any)["get"]; !ok {
				t.Errorf("%s lacks get", path)
			}
			switch {
			case strings.Contains(path, "/foreach"):
				foreachRoutes++
			case !slices.Contains(recorded.GetPaths, path):
				t.Errorf("%s is not a GET route of the recorded server", path)
			}
			if ans := a.get(t, strings.NewReplacer("{", "", "}", "").Replace(path)); ans.status == http.StatusMethodNotAllowed {
				t.Errorf("%s is listed but not served", path)
			}
		}
		if want := map[fakedagu.ForeachMode]int{fakedagu.ForeachAggregate: 0, fakedagu.ForeachRoutes: 6}[mode]; foreachRoutes != want {
			t.Errorf("mode %d lists %d foreach routes, want %d", mode, foreachRoutes, want)
		}
	}
}

func TestEventLogs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(*fakedagu.Options)
		status int
	}{
		{"viewer", nil, http.StatusForbidden},
		{"operator", func(o *fakedagu.Options) { o.Role = "operator" }, http.StatusForbidden},
		{"manager", func(o *fakedagu.Options) { o.Role = "manager" }, http.StatusOK},
		{"admin", func(o *fakedagu.Options) { o.Role = "admin" }, http.StatusOK},
		{"auth mode none skips roles", func(o *fakedagu.Options) { o.APIKey = "" }, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := startAPI(t, tt.mutate).get(t, "/event-logs?kind=dag_run&dagName=failing_job&dagRunId=0356UUn8VwcWFuh5L8qwbp&limit=1")
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.status == http.StatusForbidden {
				if ans.message(t) != "Insufficient permissions" {
					t.Errorf("message %q", ans.message(t))
				}
				return
			}
			entries := ans.object(t)["entries"].([]any)
			if len(entries) != 1 || entries[0].(map[string]any)["attemptId"] != "867a94" {
				t.Errorf("entries = %v", entries)
			}
		})
	}
}

func TestEventLogCursorAndAuthMe(t *testing.T) {
	t.Parallel()
	a := startAPI(t, func(o *fakedagu.Options) { o.Role = "admin" })
	var ids []string
	path := "/event-logs?paginationMode=cursor&limit=7"
	for range 10 {
		body := a.get(t, path).object(t)
		ids = append(ids, names(t, body["entries"], "dagRunId")...)
		next, ok := body["nextCursor"].(string)
		if !ok {
			break
		}
		path = "/event-logs?paginationMode=cursor&limit=7&cursor=" + next
	}
	if len(ids) != 21 {
		t.Errorf("cursor walk gave %d entries, want 21 (19 runs, 2 sub-runs)", len(ids))
	}
	me := a.get(t, "/auth/me").object(t)["user"].(map[string]any)
	if me["role"] != "admin" || me["username"] != "gateway" {
		t.Errorf("auth/me user = %v", me)
	}
}

func TestRequestsAreRecorded(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	a.get(t, "/dag-runs/failing_job/0356UUn8VwcWFuh5L8qwbp/steps/with%20space/log?stream=stdout")
	a.do(t, http.MethodGet, "/dags", "")
	got := a.server.Requests()
	if len(got) != 2 {
		t.Fatalf("requests = %v", got)
	}
	first := got[0]
	if first.Method != http.MethodGet || first.Path != "/api/v1/dag-runs/failing_job/0356UUn8VwcWFuh5L8qwbp/steps/with%20space/log" ||
		first.RawQuery != "stream=stdout" || first.Header.Get("Authorization") != "present" || first.Status != http.StatusNotFound {
		t.Errorf("first request = %+v", first)
	}
	if got[1].Header.Get("Authorization") != "absent" || got[1].Status != http.StatusUnauthorized {
		t.Errorf("second request = %+v", got[1])
	}
	a.server.Reset()
	if n := len(a.server.Requests()); n != 0 {
		t.Errorf("after Reset: %d requests", n)
	}
}

func TestRebaseMovesEveryTimestamp(t *testing.T) {
	t.Parallel()
	rebase := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	shift := rebase.Sub(time.Date(2026, 11, 30, 9, 30, 21, 0, time.UTC))
	plain := startAPI(t, nil)
	moved := startAPI(t, func(o *fakedagu.Options) { o.Rebase = rebase; o.Now = func() time.Time { return rebase } })
	runs := moved.get(t, "/dag-runs").object(t)["dagRuns"].([]any)
	if len(runs) != 19 || runs[0].(map[string]any)["startedAt"] != "2031-05-06T07:08:09Z" {
		t.Fatalf("today's runs after rebase: %d, newest %v", len(runs), runs[0])
	}
	for _, path := range []string{"/dag-runs/failing_job/0356UU2pv8TLmNmRDZrKqv", "/wiki?flat=true", "/dags/scheduled_job"} {
		before := collectTimes(plain.get(t, path).object(t))
		after := collectTimes(moved.get(t, path).object(t))
		if len(before) == 0 || len(before) != len(after) {
			t.Fatalf("%s: %d timestamps before, %d after", path, len(before), len(after))
		}
		for i := range before {
			if !after[i].Equal(before[i].Add(shift)) {
				t.Errorf("%s: %v moved to %v", path, before[i], after[i])
			}
		}
	}
	if me := moved.get(t, "/auth/me").object(t)["user"].(map[string]any); me["createdAt"] != "0001-01-01T00:00:00Z" {
		t.Errorf("placeholder times must not move: %v", me["createdAt"])
	}
}

// collectTimes returns every RFC 3339 string value in document order.
func collectTimes(v any) []time.Time {
	var out []time.Time
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				out = append(out, t)
			}
		}
	}
	walk(v)
	return out
}
