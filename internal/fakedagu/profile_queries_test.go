// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func TestRunListQueriesPerRelease(t *testing.T) {
	t.Parallel()
	servers := map[fakedagu.Profile]api{}
	for _, p := range fakedagu.Profiles() {
		servers[p] = startProfile(t, p, nil)
	}
	const repeated = "Invalid format for parameter status: multiple values for single value parameter 'status'\n"
	tests := []struct {
		profile fakedagu.Profile
		name    string
		query   string
		status  int
		runs    int    // -1: do not count
		body    string // exact plain-text body, when set
		cursor  bool
	}{
		{fakedagu.Profile26, "status repeats", "?fromDate=0&status=2&status=4", 200, 17, "", false},
		{fakedagu.Profile26, "limit pages", "?fromDate=0&limit=5", 200, 5, "", true},
		{fakedagu.Profile26, "labels filter", "?fromDate=0&labels=team-a", 200, 4, "", false},
		{fakedagu.Profile20, "one status only", "?fromDate=0&status=2&status=4", 400, -1, repeated, false},
		{fakedagu.Profile20, "one status", "?fromDate=0&status=4", 200, 5, "", false},
		{fakedagu.Profile20, "limit is ignored", "?fromDate=0&limit=1", 200, 6, "", false},
		{fakedagu.Profile20, "cursor is ignored", "?fromDate=0&cursor=garbage", 200, 6, "", false},
		{fakedagu.Profile20, "labels are ignored", "?fromDate=0&labels=team-a", 200, 6, "", false},
		{fakedagu.Profile20, "tags filter", "?fromDate=0&tags=team-a", 200, 2, "", false},
		{fakedagu.Profile20, "workspace is ignored", "?fromDate=0&workspace=ops", 200, 6, "", false},
		{fakedagu.Profile129, "one status only", "?fromDate=0&status=2&status=4", 400, -1, repeated, false},
		{fakedagu.Profile129, "tags are ignored", "?fromDate=0&tags=team-a", 200, 6, "", false},
		{fakedagu.Profile129, "status is typed", "?status=x", 400, -1, "", false},
		{fakedagu.Profile117, "one status only", "?status=4&status=4", 400, -1, repeated, false},
		{fakedagu.Profile117, "all time", "?fromDate=0&limit=2", 200, 6, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.name, func(t *testing.T) {
			ans := servers[tt.profile].get(t, "/dag-runs"+tt.query)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.body != "" && string(ans.body) != tt.body {
				t.Errorf("body %q, want %q", ans.body, tt.body)
			}
			if tt.runs < 0 {
				return
			}
			body := ans.object(t)
			if got := len(body["dagRuns"].([]any)); got != tt.runs {
				t.Errorf("runs = %d, want %d", got, tt.runs)
			}
			if _, has := body["nextCursor"]; has != tt.cursor {
				t.Errorf("nextCursor present = %v", has)
			}
		})
	}
}

// A 2.6 cursor walk yields the recorded list order, in which a retried run
// keeps its place although it started later.
func TestRunCursorWalkKeepsRecordedOrder(t *testing.T) {
	t.Parallel()
	a := startProfile(t, fakedagu.Profile26, nil)
	all := names(t, a.get(t, "/dag-runs?fromDate=0").object(t)["dagRuns"], "dagRunId")
	var walked []string
	next := "/dag-runs?fromDate=0&limit=3"
	for next != "" {
		body := a.get(t, next).object(t)
		walked = append(walked, names(t, body["dagRuns"], "dagRunId")...)
		next = ""
		if c, ok := body["nextCursor"].(string); ok {
			next = "/dag-runs?fromDate=0&limit=3&cursor=" + c
		}
	}
	if !slices.Equal(walked, all) {
		t.Errorf("walk %v\n all %v", walked, all)
	}
}

func TestDAGListQueriesPerRelease(t *testing.T) {
	t.Parallel()
	servers := map[fakedagu.Profile]api{}
	for _, p := range fakedagu.Profiles() {
		servers[p] = startProfile(t, p, nil)
	}
	tests := []struct {
		profile fakedagu.Profile
		name    string
		query   string
		first   []string
		total   int
	}{
		{fakedagu.Profile26, "labels", "?labels=nightly", []string{"failing_job", "scheduled_job"}, 2},
		{fakedagu.Profile26, "tags alias", "?tags=nightly", []string{"failing_job", "scheduled_job"}, 2},
		{fakedagu.Profile20, "tags", "?tags=team-a", []string{"failing_job", "parent_job"}, 2},
		{fakedagu.Profile20, "labels are ignored", "?labels=team-a&perPage=1", []string{"big_log_job"}, 13},
		{fakedagu.Profile20, "next run follows the schedule", "?sort=nextRun&order=asc&perPage=2", []string{"scheduled_job", "suspended_job"}, 13},
		{fakedagu.Profile129, "tag", "?tag=nightly", []string{"failing_job", "scheduled_job"}, 2},
		{fakedagu.Profile129, "tags are ignored", "?tags=nightly&perPage=1", []string{"big_log_job"}, 13},
		{fakedagu.Profile117, "sort is ignored", "?sort=name&order=desc&perPage=1", []string{"big_log_job"}, 8},
		{fakedagu.Profile117, "workspace is ignored", "?workspace=ops&perPage=1", []string{"big_log_job"}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.name, func(t *testing.T) {
			ans := servers[tt.profile].get(t, "/dags"+tt.query)
			if ans.status != http.StatusOK {
				t.Fatalf("status %d: %s", ans.status, ans.body)
			}
			body := ans.object(t)
			if got := names(t, body["dags"], "fileName"); !slices.Equal(got, tt.first) {
				t.Errorf("dags = %v, want %v", got, tt.first)
			}
			if got := number(body["pagination"].(map[string]any), "totalRecords"); got != tt.total {
				t.Errorf("total = %d, want %d", got, tt.total)
			}
		})
	}
}

// TestTagFilterOf1x pins the DAG list's tag filter of Dagu 1.17 and 1.29
// as their list handlers apply it: one value, equal to one of a DAG's
// labels ignoring case, neither trimmed nor split at commas; labels is
// ignored. An empty page is null on 1.17 and [] on 1.29.
func TestTagFilterOf1x(t *testing.T) {
	t.Parallel()
	all := map[fakedagu.Profile]int{fakedagu.Profile117: 8, fakedagu.Profile129: 13}
	tests := []struct {
		name  string
		query string
		dags  []string // nil: the page is empty
		total int      // -1: every DAG
	}{
		{"one label", "?tag=team-a", []string{"failing_job", "parent_job"}, 2},
		{"case is ignored", "?tag=TEAM-A", []string{"failing_job", "parent_job"}, 2},
		{"a comma is not a list", "?tag=team-a,nightly", nil, 0},
		{"spaces are kept", "?tag=%20team-a", nil, 0},
		{"empty is no filter", "?tag=&perPage=1", []string{"big_log_job"}, -1},
		{"labels are ignored", "?labels=team-a&perPage=1", []string{"big_log_job"}, -1},
		{"pages the filtered list", "?tag=nightly&perPage=1&page=2", []string{"scheduled_job"}, 2},
		{"a page past the end", "?tag=nightly&page=3&perPage=1", nil, 2},
	}
	for p, every := range all {
		a := startProfile(t, p, nil)
		for _, tt := range tests {
			t.Run(p.String()+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				ans := a.get(t, "/dags"+tt.query)
				if ans.status != http.StatusOK {
					t.Fatalf("status %d: %s", ans.status, ans.body)
				}
				body := ans.object(t)
				switch {
				case tt.dags != nil:
					if got := names(t, body["dags"], "fileName"); !slices.Equal(got, tt.dags) {
						t.Errorf("dags = %v, want %v", got, tt.dags)
					}
				case p == fakedagu.Profile117:
					if body["dags"] != nil {
						t.Errorf("dags = %v, want null", body["dags"])
					}
				default:
					if got, ok := body["dags"].([]any); !ok || len(got) != 0 {
						t.Errorf("dags = %v, want []", body["dags"])
					}
				}
				want := tt.total
				if want < 0 {
					want = every
				}
				if got := number(body["pagination"].(map[string]any), "totalRecords"); got != want {
					t.Errorf("total = %d, want %d", got, want)
				}
			})
		}
	}
}
