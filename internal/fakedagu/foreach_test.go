// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

const (
	nestedRun  = "/dag-runs/nested_foreach_job/0356UUqK8fRz2LbWnT4cYd"
	regions    = nestedRun + "/steps/regions/foreach"
	foreachRun = "/dag-runs/foreach_job/0356UUnVEGj0qj7EkXG3Be"
)

func startForeachRoutes(t *testing.T) api {
	return startAPI(t, func(o *fakedagu.Options) {
		o.Foreach = fakedagu.ForeachRoutes
		o.RecordedOnly = false
	})
}

func TestForeachItemLists(t *testing.T) {
	t.Parallel()
	a := startForeachRoutes(t)
	tests := []struct {
		name, query string
		wantItems   []string
		wantTotal   int
		wantCounts  map[string]int
	}{
		{"failed, then running, then the rest by index", "", []string{"1", "2", "0", "3"}, 4,
			map[string]int{"notStarted": 1, "running": 1, "succeeded": 1, "failed": 1, "aborted": 0}},
		{"status filter keeps counts and total", "?status=succeeded", []string{"0"}, 4,
			map[string]int{"succeeded": 1, "failed": 1}},
		{"paging after the sort", "?perPage=2&page=2", []string{"0", "3"}, 4, nil},
		{"page 0 and perPage 0 are defaults", "?perPage=0&page=0", []string{"1", "2", "0", "3"}, 4, nil},
		{"nested items by parent; retrying counts as running", "?parent=2.shards", []string{"2.shards.1", "2.shards.0", "2.shards.2"}, 3,
			map[string]int{"running": 1, "succeeded": 1, "notStarted": 1}},
		{"a nested foreach that never started", "?parent=1.shards", []string{}, 0, nil},
		{"running filter", "?parent=2.shards&status=running", []string{"2.shards.1"}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.get(t, regions+tt.query)
			if ans.status != http.StatusOK {
				t.Fatalf("status %d: %s", ans.status, ans.body)
			}
			body := ans.object(t)
			if got := names(t, body["items"], "item"); !slices.Equal(got, tt.wantItems) {
				t.Errorf("items = %v, want %v", got, tt.wantItems)
			}
			if number(body, "total") != tt.wantTotal {
				t.Errorf("total = %v, want %d", body["total"], tt.wantTotal)
			}
			counts := body["counts"].(map[string]any)
			for k, want := range tt.wantCounts {
				if number(counts, k) != want {
					t.Errorf("counts.%s = %v, want %d", k, counts[k], want)
				}
			}
		})
	}
}

func TestForeachItemAndBodyLogs(t *testing.T) {
	t.Parallel()
	a := startForeachRoutes(t)
	item := a.get(t, regions+"/0").object(t)
	steps := item["steps"].([]any)
	shards := steps[1].(map[string]any)
	if item["key"] != "eu" || shards["foreachParent"] != "0.shards" || shards["hasStdout"] != true || shards["hasStderr"] != false {
		t.Errorf("item 0 = %v", item)
	}
	retrying := a.get(t, regions+"/2.shards.1").object(t)["steps"].([]any)[0].(map[string]any)
	if number(retrying, "retryCount") != 1 || retrying["statusLabel"] != "retrying" || retrying["hasStderr"] != true {
		t.Errorf("retrying body step = %v", retrying)
	}
	beta := a.get(t, foreachRun+"/steps/each/foreach/1/steps/work/log?stream=stderr").object(t)
	if beta["content"] != "beta broke" {
		t.Errorf("beta stderr = %v", beta)
	}
	byID := a.get(t, foreachRun+"/steps/each/foreach/0/steps/work/log")
	if byID.status != http.StatusOK || byID.object(t)["content"] != "working on alpha" {
		t.Errorf("stdout is the default stream: %d %s", byID.status, byID.body)
	}
}

func TestForeachErrors(t *testing.T) {
	t.Parallel()
	a := startForeachRoutes(t)
	tests := []struct {
		path   string
		status int
		want   string
	}{
		{regions + "/x1", http.StatusBadRequest, "invalid foreach item path: x1"},
		{regions + "/1.shards", http.StatusBadRequest, "invalid foreach item path: 1.shards"},
		{regions + "/9", http.StatusNotFound, "item 9 of step regions has no record"},
		{regions + "?parent=7.shards", http.StatusNotFound, "item 7 of step regions has no record"},
		{regions + "?status=done", http.StatusBadRequest, "invalid status filter: done"},
		{nestedRun + "/steps/setup/foreach", http.StatusNotFound, "step setup in DAG nested_foreach_job is not a foreach step"},
		{nestedRun + "/steps/nope/foreach", http.StatusNotFound, "step nope not found in DAG nested_foreach_job"},
		{"/dag-runs/nested_foreach_job/nope/steps/regions/foreach", http.StatusNotFound, "dag-run ID nope not found for DAG nested_foreach_job"},
		{"/dag-runs/parent_job/0356UUnJXB5Ffd1qyncWee/sub-dag-runs/nope/steps/x/foreach", http.StatusNotFound, "sub dag-run ID nope not found for DAG parent_job"},
		{regions + "/3/steps/fetch/log?stream=stdout", http.StatusNotFound, "log file not found for body step fetch of item 3"},
		{regions + "/3/steps/nope/log", http.StatusNotFound, "body step nope not found in item 3 of step regions"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			ans := a.get(t, tt.path)
			if ans.status != tt.status || ans.message(t) != tt.want {
				t.Errorf("got %d %q, want %d %q", ans.status, ans.message(t), tt.status, tt.want)
			}
		})
	}
}

func TestAggregateModeHasNoForeachRoutes(t *testing.T) {
	t.Parallel()
	a := startAPI(t, func(o *fakedagu.Options) { o.RecordedOnly = false })
	for _, path := range []string{regions, regions + "/0", foreachRun + "/steps/each/foreach/1/steps/work/log?stream=stdout"} {
		ans := a.get(t, path)
		if ans.status != http.StatusNotFound || string(ans.body) != "404 page not found\n" {
			t.Errorf("%s: %d %q", path, ans.status, ans.body)
		}
	}
	// The extra running run is still there for the degraded paths.
	node := a.get(t, nestedRun).object(t)["dagRunDetails"].(map[string]any)["nodes"].([]any)[1].(map[string]any)
	if node["statusLabel"] != "running" {
		t.Errorf("regions node = %v", node)
	}
	if got := string(a.get(t, nestedRun+"/steps/regions/log?stream=stdout").body); got != `{"content":""}`+"\n" {
		t.Errorf("a running foreach has written no summary yet: %s", got)
	}
}

func TestRecordedOnlyHidesTheAdditions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		recordedOnly bool
		wantStatus   int
		wantDAGs     int
	}{{true, http.StatusNotFound, 16}, {false, http.StatusOK, 17}}
	for _, tt := range tests {
		a := startAPI(t, func(o *fakedagu.Options) { o.RecordedOnly = tt.recordedOnly })
		for _, path := range []string{"/dags/nested_foreach_job", "/dags/nested_foreach_job/spec", nestedRun, "/dag-runs/nested_foreach_job/latest"} {
			if got := a.get(t, path).status; got != tt.wantStatus {
				t.Errorf("RecordedOnly=%v %s: %d, want %d", tt.recordedOnly, path, got, tt.wantStatus)
			}
		}
		list := a.get(t, "/dags").object(t)
		if number(list["pagination"].(map[string]any), "totalRecords") != tt.wantDAGs {
			t.Errorf("RecordedOnly=%v: %v DAGs", tt.recordedOnly, list["pagination"])
		}
	}
}
