// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// Every DAG and run a profile lists can be read in that release's shapes:
// details, spec, run details, scheduler log, step logs and sub-runs answer
// JSON (a step without a log file is a JSON 404, never a router 404).
func TestEveryProfileServesWhatItLists(t *testing.T) {
	t.Parallel()
	for _, p := range fakedagu.Profiles() {
		t.Run(p.String(), func(t *testing.T) {
			a := startProfile(t, p, nil)
			sweepDAGs(t, a, p)
			sweepRuns(t, a, p)
		})
	}
}

func sweepDAGs(t *testing.T, a api, p fakedagu.Profile) {
	t.Helper()
	wantKeys := slices.Sorted(maps.Keys(a.get(t, "/dags/mcp_read_contract").object(t)))
	for _, e := range a.get(t, "/dags?perPage=200").object(t)["dags"].([]any) {
		entry := e.(map[string]any)
		file := entry["fileName"].(string)
		details := a.get(t, "/dags/"+url.PathEscape(file))
		if details.status != http.StatusOK {
			t.Errorf("%s: details %d %s", file, details.status, details.body)
			continue
		}
		body := details.object(t)
		if got := slices.Sorted(maps.Keys(body)); !slices.Equal(got, wantKeys) {
			t.Errorf("%s: details keys %v, want %v", file, got, wantKeys)
		}
		listed, _ := entry["latestDAGRun"].(map[string]any)["dagRunId"].(string)
		if got, _ := body["latestDAGRun"].(map[string]any)["dagRunId"].(string); got != listed {
			t.Errorf("%s: latest run %q, list says %q", file, got, listed)
		}
		if spec := a.get(t, "/dags/"+url.PathEscape(file)+"/spec"); spec.status != http.StatusOK {
			t.Errorf("%s: spec %d %s", file, spec.status, spec.body)
		}
	}
}

func sweepRuns(t *testing.T, a api, p fakedagu.Profile) {
	t.Helper()
	subPath := "/sub-dag-runs/"
	if p == fakedagu.Profile117 {
		subPath = "/children/"
	}
	for _, e := range a.get(t, "/dag-runs?fromDate=0").object(t)["dagRuns"].([]any) {
		s := e.(map[string]any)
		runPath := "/dag-runs/" + url.PathEscape(s["name"].(string)) + "/" + s["dagRunId"].(string)
		details := a.get(t, runPath)
		if details.status != http.StatusOK {
			t.Errorf("%s: %d %s", runPath, details.status, details.body)
			continue
		}
		if log := a.get(t, runPath+"/log"); log.status != http.StatusOK {
			t.Errorf("%s/log: %d %s", runPath, log.status, log.body)
		}
		for _, n := range details.object(t)["dagRunDetails"].(map[string]any)["nodes"].([]any) {
			node := n.(map[string]any)
			step := node["step"].(map[string]any)["name"].(string)
			ans := a.get(t, runPath+"/steps/"+url.PathEscape(step)+"/log?stream=stdout")
			if ans.contentType != "application/json" || (ans.status != http.StatusOK && ans.status != http.StatusNotFound) {
				t.Errorf("%s step %s: %d %q %s", runPath, step, ans.status, ans.contentType, ans.body)
			}
			for _, sr := range append(listOrNil(node["subRuns"]), listOrNil(node["children"])...) {
				id := sr.(map[string]any)["dagRunId"].(string)
				if sub := a.get(t, runPath+subPath+id); sub.status != http.StatusOK {
					t.Errorf("%s sub-run %s: %d %s", runPath, id, sub.status, sub.body)
				}
			}
		}
	}
}

func listOrNil(v any) []any {
	l, _ := v.([]any)
	return l
}

// Rebase moves every profile's runs so that the newest starts at Rebase.
func TestRebaseEveryProfile(t *testing.T) {
	t.Parallel()
	rebase := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, p := range fakedagu.Profiles() {
		t.Run(p.String(), func(t *testing.T) {
			a := startProfile(t, p, func(o *fakedagu.Options) {
				o.Rebase = rebase
				o.Now = func() time.Time { return rebase }
			})
			runs := listOrNil(a.get(t, "/dag-runs").object(t)["dagRuns"])
			var newest time.Time
			for _, r := range runs {
				if ts, err := time.Parse(time.RFC3339, r.(map[string]any)["startedAt"].(string)); err == nil && ts.After(newest) {
					newest = ts
				}
			}
			if len(runs) == 0 || !newest.Equal(rebase) {
				t.Errorf("today's runs after rebase: %d, newest %v", len(runs), newest)
			}
		})
	}
}
