// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func TestDAGListFiltersAndPaging(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct {
		name       string
		query      string
		wantFiles  []string
		wantPaging map[string]int
	}{
		{"perPage above 200 is clamped", "?perPage=500", nil, map[string]int{"totalPages": 1, "totalRecords": 16}},
		{"perPage 0 means 50", "?perPage=0&page=0", nil, map[string]int{"currentPage": 1, "totalPages": 1}},
		{"page beyond the end keeps the quirks", "?perPage=5&page=9", []string{}, map[string]int{"currentPage": 9, "nextPage": 4, "prevPage": 8, "totalPages": 4}},
		{"name matches the file name case-insensitively", "?name=MCP", []string{"mcp.read-contract", "mcp_read_contract"}, map[string]int{"totalRecords": 2}},
		{"labels must all match", "?labels=TEAM-A,nightly", []string{"failing_job"}, nil},
		{"tags is an alias of labels", "?tags=nightly", []string{"failing_job", "scheduled_job"}, nil},
		{"no DAG carries the label", "?labels=missing", []string{}, map[string]int{"totalRecords": 0, "totalPages": 1}},
		{"a workspace without DAGs", "?workspace=ops", []string{}, map[string]int{"totalRecords": 0}},
		{"descending name order", "?order=desc&perPage=2", []string{"suspended_job", "scheduled_job"}, nil},
		{"next run first, descending", "?sort=nextRun&order=desc&perPage=1", []string{"suspended_job"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.get(t, "/dags"+tt.query)
			if ans.status != http.StatusOK {
				t.Fatalf("status %d: %s", ans.status, ans.body)
			}
			body := ans.object(t)
			if tt.wantFiles != nil {
				if got := names(t, body["dags"], "fileName"); !slices.Equal(got, tt.wantFiles) {
					t.Errorf("files = %v, want %v", got, tt.wantFiles)
				}
			}
			paging := body["pagination"].(map[string]any)
			for k, want := range tt.wantPaging {
				if got := number(paging, k); got != want {
					t.Errorf("pagination.%s = %d, want %d", k, got, want)
				}
			}
		})
	}
}

func TestDAGListRejects(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct {
		query, contentType, want string
	}{
		{"?labels=a&tags=b", "application/json", "labels and tags"},
		{"?page=x", "text/plain; charset=utf-8", "Invalid format for parameter page: error binding string parameter: strconv.ParseInt: parsing \"x\": invalid syntax\n"},
		{"?perPage=1&perPage=2", "text/plain; charset=utf-8", "Invalid format for parameter perPage: multiple values for single value parameter 'perPage'\n"},
		{"?active=maybe", "text/plain; charset=utf-8", "Invalid format for parameter active"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			ans := a.get(t, "/dags"+tt.query)
			if ans.status != http.StatusBadRequest || ans.contentType != tt.contentType {
				t.Fatalf("got %d %q, want 400 %q", ans.status, ans.contentType, tt.contentType)
			}
			if !strings.Contains(string(ans.body), tt.want) {
				t.Errorf("body %q does not contain %q", ans.body, tt.want)
			}
		})
	}
}

func TestDAGFileNameValidation(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	long := strings.Repeat("a", 41)
	tests := []struct {
		path, want string
		status     int
	}{
		{"/dags/" + long, "name must be less than 40 characters", http.StatusBadRequest},
		{"/dags/" + strings.Repeat("a", 40), "failed to load DAG " + strings.Repeat("a", 40) + ": failed to locate DAG " + strings.Repeat("a", 40) + ": DAG is not found", http.StatusNotFound},
		{"/dags/a%2Fb/spec", "name must only contain alphanumeric characters, dashes, dots, and underscores", http.StatusBadRequest},
		{"/dags/..", "name must not be '.' or '..'", http.StatusBadRequest},
		{"/dags/./spec", "name must not be '.' or '..'", http.StatusBadRequest},
		{"/search/dags/bad%20name/matches?q=echo", "name must only contain alphanumeric characters, dashes, dots, and underscores", http.StatusBadRequest},
		{"/dags/no_such_dag/spec", "DAG not found", http.StatusNotFound},
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

func TestDerivedDAGDetailsMatchTheirRuns(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct {
		file, wantRun string
		wantSteps     []string
	}{
		{"failing_job", "0356UUn8VwcWFuh5L8qwbp", []string{"prepare", "explode"}},
		{"parent_job", "0356UUnJXB5Ffd1qyncWee", []string{"prepare", "run_child", "done"}},
		{"scheduled_job", "0356UUITYWJ9iZKBzmZHXR", []string{"main"}},
		{"example-02-parallel-execution", "", []string{"setup", "worker_a", "worker_b", "worker_c", "merge"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d := a.get(t, "/dags/"+tt.file).object(t)
			latest := d["latestDAGRun"].(map[string]any)
			if latest["dagRunId"] != tt.wantRun {
				t.Errorf("latest run = %v, want %q", latest["dagRunId"], tt.wantRun)
			}
			dag := d["dag"].(map[string]any)
			if got := names(t, dag["steps"], "name"); !slices.Equal(got, tt.wantSteps) {
				t.Errorf("steps = %v, want %v", got, tt.wantSteps)
			}
			spec := a.get(t, "/dags/"+tt.file+"/spec").object(t)
			if spec["spec"] != d["spec"] || spec["spec"] == "" {
				t.Errorf("spec route and details disagree")
			}
		})
	}
}

// TestListedDAGsOnlyInTheList: Options.ListedDAGs join the DAG list, its
// label filter (1.x's one tag here) and its paging, and no other route.
func TestListedDAGsOnlyInTheList(t *testing.T) {
	t.Parallel()
	a := startAPI(t, func(o *fakedagu.Options) {
		o.Profile = fakedagu.Profile129
		o.ListedDAGs = []fakedagu.ListedDAG{{Name: "bulk_a", Labels: []string{"Bulk"}}, {Name: "bulk_b", Labels: []string{"bulk", "odd"}}, {Name: "bulk_c"}}
	})
	a.url = strings.TrimSuffix(a.url, "/api/v1") + a.server.APIPrefix()
	plain := startAPI(t, func(o *fakedagu.Options) { o.Profile = fakedagu.Profile129 })
	plain.url = strings.TrimSuffix(plain.url, "/api/v1") + plain.server.APIPrefix()
	total := func(a api) int {
		return number(a.get(t, "/dags?perPage=200").object(t)["pagination"].(map[string]any), "totalRecords")
	}
	if got, recorded := total(a), total(plain); got != recorded+3 {
		t.Errorf("totalRecords %d, want the %d recorded DAGs and 3 listed", got, recorded)
	}
	page := a.get(t, "/dags?tag=BULK&perPage=1&page=2").object(t)
	if got := names(t, page["dags"], "fileName"); !slices.Equal(got, []string{"bulk_b"}) {
		t.Errorf("second page of tag bulk: %v", got)
	}
	if got := number(page["pagination"].(map[string]any), "totalRecords"); got != 2 {
		t.Errorf("tag bulk: totalRecords %d, want 2", got)
	}
	if ans := a.get(t, "/dags/bulk_a"); ans.status != http.StatusNotFound {
		t.Errorf("a listed DAG's details: status %d, want 404", ans.status)
	}
}
