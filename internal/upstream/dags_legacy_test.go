// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestDAGLabelFilterOnEveryRelease reads the DAG list with labels on every
// release the fake imitates: each sends the filter its release honours
// (labels, tags, or the first label as tag), and every release answers
// what the current one answers for the same recorded labels.
func TestDAGLabelFilterOnEveryRelease(t *testing.T) {
	t.Parallel()
	// The REST calls of the two-label read, relative to the API base.
	twoLabelCalls := map[fakedagu.Profile][]string{
		fakedagu.ProfileCurrent: {"/dags?labels=nightly%2Cteam-a"},
		fakedagu.Profile26:      {"/dags?labels=nightly%2Cteam-a"},
		fakedagu.Profile20:      {"/dags?tags=nightly%2Cteam-a"},
		fakedagu.Profile129:     {"/dags?page=1&perPage=200&tag=nightly"},
		fakedagu.Profile117:     {"/dags?page=1&perPage=200&tag=nightly"},
	}
	tests := []struct {
		name  string
		q     model.DAGListQuery
		names []string
		pages model.Pagination
	}{
		{"one label", model.DAGListQuery{Labels: []string{"team-a"}},
			[]string{"failing_job", "parent_job"}, model.Pagination{TotalRecords: 2, CurrentPage: 1, TotalPages: 1, NextPage: 1, PrevPage: 1}},
		{"two labels", model.DAGListQuery{Labels: []string{"nightly", " TEAM-A "}},
			[]string{"failing_job"}, model.Pagination{TotalRecords: 1, CurrentPage: 1, TotalPages: 1, NextPage: 1, PrevPage: 1}},
		{"two labels, a page past the end", model.DAGListQuery{Labels: []string{"nightly", "team-a"}, Page: 2, PerPage: 1},
			[]string{}, model.Pagination{TotalRecords: 1, CurrentPage: 2, TotalPages: 1, NextPage: 1, PrevPage: 1}},
		{"one label, second page", model.DAGListQuery{Labels: []string{"nightly"}, Page: 2, PerPage: 1},
			[]string{"scheduled_job"}, model.Pagination{TotalRecords: 2, CurrentPage: 2, TotalPages: 2, NextPage: 2, PrevPage: 1}},
		{"a label no DAG carries", model.DAGListQuery{Labels: []string{"nightly", "nope"}},
			[]string{}, model.Pagination{TotalRecords: 0, CurrentPage: 1, TotalPages: 1, NextPage: 1, PrevPage: 1}},
		{"the same label twice", model.DAGListQuery{Labels: []string{"Team-A", "team-a"}},
			[]string{"failing_job", "parent_job"}, model.Pagination{TotalRecords: 2, CurrentPage: 1, TotalPages: 1, NextPage: 1, PrevPage: 1}},
	}
	for _, p := range fakedagu.Profiles() {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p, RecordedOnly: true}, detect: true})
			base := env.fake.Load().APIPrefix()
			for _, tt := range tests {
				var got *model.DAGCollection
				var err error
				calls := env.calls(func() { got, err = env.adapter.ListDAGs(context.Background(), tt.q) })
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				names := make([]string, len(got.Items))
				for i, it := range got.Items {
					names[i] = it.Name
				}
				if !slices.Equal(names, tt.names) || got.Pagination != tt.pages {
					t.Errorf("%s: %v %+v, want %v %+v", tt.name, names, got.Pagination, tt.names, tt.pages)
				}
				if tt.name != "two labels" {
					continue
				}
				for i := range calls {
					calls[i] = strings.TrimPrefix(calls[i], base)
				}
				if want := canonicalCalls(twoLabelCalls[p]); !slices.Equal(calls, want) {
					t.Errorf("calls %q, want %q", calls, want)
				}
			}
		})
	}
}

// TestSeveralLabelsOn1xReadEveryPage serves a 1.x DAG list longer than
// one of the gateway's pages: the gateway reads the tag-filtered list page
// by page (at most emulatedMaxPages), applies the other labels and cuts
// the caller's page from what is left.
func TestSeveralLabelsOn1xReadEveryPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		dags      int // DAG i carries x, and y when i%3 == 0
		q         model.DAGListQuery
		wantCalls int
		first     string
		items     int
		pages     model.Pagination
	}{
		{"three pages", 2*emulatedPageSize + 50, model.DAGListQuery{Labels: []string{"x", "y"}, Page: 2, PerPage: 100},
			3, "dag-0300", 50, model.Pagination{TotalRecords: 150, CurrentPage: 2, TotalPages: 2, NextPage: 2, PrevPage: 1}},
		// y goes to the server: its 150 DAGs fit one page.
		{"default page size", 2*emulatedPageSize + 50, model.DAGListQuery{Labels: []string{"y", "x"}},
			1, "dag-0000", defaultDAGsPerPage, model.Pagination{TotalRecords: 150, CurrentPage: 1, TotalPages: 3, NextPage: 2, PrevPage: 1}},
		// Only the first emulatedMaxItems DAGs are read: 667 of them carry y.
		{"bounded", emulatedMaxItems + 3*emulatedPageSize, model.DAGListQuery{Labels: []string{"x", "y"}, PerPage: 200},
			emulatedMaxPages, "dag-0000", 200, model.Pagination{TotalRecords: 667, CurrentPage: 1, TotalPages: 4, NextPage: 2, PrevPage: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: fakedagu.Profile129}, detect: true})
			list := taggedDAGList{total: tt.dags}
			env.setIntercept(list.serve)
			got, err := env.adapter.ListDAGs(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if calls := list.tags(); len(calls) != tt.wantCalls || slices.ContainsFunc(calls, func(c string) bool { return c != tt.q.Labels[0] }) {
				t.Errorf("tag values sent %q, want %d times %q", calls, tt.wantCalls, tt.q.Labels[0])
			}
			if len(got.Items) != tt.items || got.Items[0].Name != tt.first || got.Pagination != tt.pages {
				t.Errorf("%d items from %s, %+v; want %d from %s, %+v", len(got.Items), got.Items[0].Name, got.Pagination, tt.items, tt.first, tt.pages)
			}
			for _, it := range got.Items {
				if n, _ := strconv.Atoi(strings.TrimPrefix(it.Name, "dag-")); n%3 != 0 {
					t.Fatalf("%s does not carry y", it.Name)
				}
			}
		})
	}
}

// taggedDAGList answers GET /dags as Dagu 1.29 does for a tag filter over
// total DAGs named dag-0000...: every DAG carries x, every third one y.
type taggedDAGList struct {
	total int
	mu    sync.Mutex
	sent  []string
}

func (l *taggedDAGList) tags() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.sent)
}

func (l *taggedDAGList) serve(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasSuffix(r.URL.Path, "/dags") {
		return false
	}
	q := r.URL.Query()
	tag := q.Get("tag")
	l.mu.Lock()
	l.sent = append(l.sent, tag)
	l.mu.Unlock()
	var matched []map[string]any
	for i := range l.total {
		tags := []string{"x"}
		if i%3 == 0 {
			tags = append(tags, "y")
		}
		if tag == "" || slices.Contains(tags, strings.ToLower(tag)) {
			matched = append(matched, map[string]any{"fileName": fmt.Sprintf("dag-%04d", i), "suspended": false,
				"dag": map[string]any{"name": fmt.Sprintf("dag-%04d", i), "tags": tags}, "latestDAGRun": map[string]any{}})
		}
	}
	page, _ := strconv.Atoi(q.Get("page"))
	perPage, _ := strconv.Atoi(q.Get("perPage"))
	page, perPage = max(page, 1), min(max(perPage, 1), 200)
	start := min((page-1)*perPage, len(matched))
	end := min(start+perPage, len(matched))
	body, _ := json.Marshal(map[string]any{"dags": matched[start:end], "errors": nil,
		"pagination": listPagination(len(matched), page, perPage)})
	return answerJSON(w, http.StatusOK, string(body))
}
