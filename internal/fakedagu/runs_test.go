// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func TestRunListWindowAndFilters(t *testing.T) {
	t.Parallel()
	nextDay := func(o *fakedagu.Options) {
		o.Now = func() time.Time { return recordedAt.Add(24 * time.Hour) }
	}
	recordedDay := startAPI(t, nil)
	laterDay := startAPI(t, nextDay)
	endOfRecording := recordedAt.Unix()
	tests := []struct {
		name  string
		a     api
		query string
		want  int
	}{
		{"today's window holds every recorded run", recordedDay, "", 19},
		{"the next day's window is empty", laterDay, "", 0},
		{"fromDate opens the window", laterDay, "?fromDate=0", 19},
		{"only toDate starts in 2000", laterDay, fmt.Sprintf("?toDate=%d", endOfRecording), 19},
		{"toDate before the runs", laterDay, "?toDate=946684800", 0},
		{"fromDate after the first batch", laterDay, fmt.Sprintf("?fromDate=%d", time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC).Unix()), 10},
		{"name is a case-insensitive substring", laterDay, "?fromDate=0&name=READ", 6},
		{"dagRunId is a substring", laterDay, "?fromDate=0&dagRunId=0356UUn", 5},
		{"dagRunId latest has no special meaning", laterDay, "?fromDate=0&dagRunId=latest", 0},
		{"status repeats", laterDay, "?fromDate=0&status=2&status=7", 6},
		{"out of range status matches nothing", laterDay, "?fromDate=0&status=42", 0},
		{"labels", laterDay, "?fromDate=0&labels=Team-A", 4},
		{"limit below 1 becomes 1", laterDay, "?fromDate=0&limit=0", 1},
		{"limit", laterDay, "?fromDate=0&limit=3", 3},
		{"default workspace", laterDay, "?fromDate=0&workspace=default", 19},
		{"a workspace without runs", laterDay, "?fromDate=0&workspace=ops", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := tt.a.get(t, "/dag-runs"+tt.query)
			if ans.status != http.StatusOK {
				t.Fatalf("status %d: %s", ans.status, ans.body)
			}
			if got := len(ans.object(t)["dagRuns"].([]any)); got != tt.want {
				t.Errorf("runs = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestRunListCursorWalk(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	all := names(t, a.get(t, "/dag-runs?fromDate=0").object(t)["dagRuns"], "dagRunId")
	var walked []string
	path := "/dag-runs?fromDate=0&limit=4"
	for range 20 {
		body := a.get(t, path).object(t)
		walked = append(walked, names(t, body["dagRuns"], "dagRunId")...)
		next, ok := body["nextCursor"].(string)
		if !ok {
			break
		}
		path = "/dag-runs?fromDate=0&limit=4&cursor=" + url.QueryEscape(next)
	}
	if !slices.Equal(walked, all) {
		t.Errorf("walked %v, want %v", walked, all)
	}
	first := a.get(t, "/dag-runs?fromDate=0&limit=1").object(t)["nextCursor"].(string)
	tests := []struct{ query, want string }{
		{"?limit=1", "dagrun: invalid query cursor: cursor does not match the current filters"},
		{"?fromDate=0&status=4", "dagrun: invalid query cursor: cursor does not match the current filters"},
		{"?fromDate=1", "dagrun: invalid query cursor: cursor does not match the current filters"},
	}
	for _, tt := range tests {
		ans := a.get(t, "/dag-runs"+tt.query+"&cursor="+url.QueryEscape(first))
		if ans.status != http.StatusBadRequest || ans.message(t) != tt.want {
			t.Errorf("%s: got %d %q", tt.query, ans.status, ans.message(t))
		}
	}
	if ans := a.get(t, "/dag-runs?cursor=!!"); ans.status != http.StatusBadRequest {
		t.Errorf("garbage cursor: got %d", ans.status)
	}
}

func TestRunListTypeErrors(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct{ query, want string }{
		{"?status=1,2", "Invalid format for parameter status: error setting array element: error binding string parameter: strconv.ParseInt: parsing \"1,2\": invalid syntax\n"},
		{"?fromDate=yesterday", "Invalid format for parameter fromDate: error binding string parameter: strconv.ParseInt: parsing \"yesterday\": invalid syntax\n"},
		{"?limit=ten", "Invalid format for parameter limit: error binding string parameter: strconv.ParseInt: parsing \"ten\": invalid syntax\n"},
	}
	for _, tt := range tests {
		ans := a.get(t, "/dag-runs"+tt.query)
		if ans.status != http.StatusBadRequest || ans.contentType != "text/plain; charset=utf-8" || string(ans.body) != tt.want {
			t.Errorf("%s: got %d %q %q", tt.query, ans.status, ans.contentType, ans.body)
		}
	}
}

func TestRunListByExactName(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	body := a.get(t, "/dag-runs/mcp_read_contract?fromDate=0").object(t)
	if got := names(t, body["dagRuns"], "name"); len(got) != 4 || slices.ContainsFunc(got, func(n string) bool { return n != "mcp_read_contract" }) {
		t.Errorf("exact-name list = %v", got)
	}
	if got := a.get(t, "/dag-runs/mcp?fromDate=0").object(t)["dagRuns"].([]any); len(got) != 0 {
		t.Errorf("the path name is exact, got %d runs", len(got))
	}
}

func TestRunLookups(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	const parent = "/dag-runs/parent_job/0356UUnJXB5Ffd1qyncWee"
	const child = "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg"
	tests := []struct {
		path   string
		status int
		want   string // message for errors
	}{
		{"/dag-runs/failing_job/latest", http.StatusOK, ""},
		{"/dag-runs/failing_job/latest/spec", http.StatusOK, ""},
		{"/dag-runs/failing_job/0356UU2pv8TLmNmRDZrKqv", http.StatusOK, ""},
		{"/dag-runs/failing_job/latest/log", http.StatusNotFound, "dag-run ID latest not found for DAG failing_job"},
		{"/dag-runs/failing_job/latest/steps/explode/log?stream=stdout", http.StatusNotFound, "dag-run ID latest not found for DAG failing_job"},
		{"/dag-runs/parent_job/latest/sub-dag-runs", http.StatusNotFound, "dag-run ID latest not found for DAG parent_job"},
		{"/dag-runs/child_job/" + child, http.StatusNotFound, "dag-run ID " + child + " not found for DAG child_job"},
		{parent + "/sub-dag-runs/nope", http.StatusNotFound, "sub dag-run ID nope not found for DAG parent_job"},
		{parent + "/sub-dag-runs/" + child + "/spec", http.StatusOK, ""},
		{parent + "/sub-dag-runs/" + child + "/steps/nope/log?stream=stdout", http.StatusNotFound, "step nope not found in DAG child_job"},
		{"/dag-runs/human_task_job/0356UUnhJiL9K5KSXR0NTa/steps/ask/log?stream=stdout", http.StatusNotFound, "log file not found for step ask"},
		{"/dag-runs/nested_foreach_job/latest", http.StatusNotFound, "no dag-runs found for DAG nested_foreach_job"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			ans := a.get(t, tt.path)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.want != "" && ans.message(t) != tt.want {
				t.Errorf("message %q, want %q", ans.message(t), tt.want)
			}
		})
	}
}

func TestDerivedRunsAreConsistent(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	for _, summary := range a.get(t, "/dag-runs?fromDate=0").object(t)["dagRuns"].([]any) {
		s := summary.(map[string]any)
		path := fmt.Sprintf("/dag-runs/%s/%s", s["name"], s["dagRunId"])
		details := a.get(t, path).object(t)["dagRunDetails"].(map[string]any)
		for k, v := range s {
			if fmt.Sprint(details[k]) != fmt.Sprint(v) {
				t.Errorf("%s: details.%s = %v, summary says %v", path, k, details[k], v)
			}
		}
		if ans := a.get(t, path+"/log"); ans.status != http.StatusOK {
			t.Errorf("%s/log: %d", path, ans.status)
		}
		for _, n := range details["nodes"].([]any) {
			node := n.(map[string]any)
			if node["stdout"] == "" {
				continue
			}
			step := node["step"].(map[string]any)["name"].(string)
			if ans := a.get(t, path+"/steps/"+url.PathEscape(step)+"/log?stream=stdout&head=1"); ans.status != http.StatusOK {
				t.Errorf("%s step %s stdout: %d", path, step, ans.status)
			}
		}
	}
}

func TestSubRunsOfDerivedParent(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	const parent = "/dag-runs/parent_job/0356UU320rS6Rq9Bt7mhOM"
	subs := a.get(t, parent+"/sub-dag-runs").object(t)["subRuns"].([]any)
	if len(subs) != 1 {
		t.Fatalf("sub-runs = %v", subs)
	}
	id := subs[0].(map[string]any)["dagRunId"].(string)
	details := a.get(t, parent+"/sub-dag-runs/"+id).object(t)["dagRunDetails"].(map[string]any)
	if details["parentDAGRunId"] != "0356UU320rS6Rq9Bt7mhOM" || details["name"] != "child_job" {
		t.Errorf("sub-run details = %v", details)
	}
	log := a.get(t, parent+"/sub-dag-runs/"+id+"/steps/child_start/log?stream=stdout").object(t)
	if log["content"] != "child 123" {
		t.Errorf("child stdout = %v", log["content"])
	}
	if ans := a.get(t, parent+"/sub-dag-runs/"+id+"/log"); ans.message(t) != "log file not found for sub dag-run "+id {
		t.Errorf("sub-run scheduler log: %s", ans.body)
	}
	if got := a.get(t, parent+"/sub-dag-runs?parentSubDAGRunId="+id).object(t)["subRuns"].([]any); len(got) != 0 {
		t.Errorf("the child has no children, got %v", got)
	}
}
