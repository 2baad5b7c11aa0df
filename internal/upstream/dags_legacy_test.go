// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
// one of the gateway's pages (the fake's listed DAGs dag-0000...: every
// one carries x, every third one y too): the gateway reads the
// tag-filtered list page by page, applies the other labels and cuts the
// caller's page from what is left, up to emulatedMaxItems DAGs carrying
// the label sent. Past that the read fails after one call, never
// answering from part of the list.
func TestSeveralLabelsOn1xReadEveryPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		dags      int
		q         model.DAGListQuery
		wantCalls int
		first     string
		items     int
		pages     model.Pagination
		// over: the read must fail for the scan limit (items and pages
		// unused).
		over bool
	}{
		{name: "three pages", dags: 2*emulatedPageSize + 50, q: model.DAGListQuery{Labels: []string{"x", "y"}, Page: 2, PerPage: 100},
			wantCalls: 3, first: "dag-0300", items: 50, pages: model.Pagination{TotalRecords: 150, CurrentPage: 2, TotalPages: 2, NextPage: 2, PrevPage: 1}},
		// y goes to the server: its 150 DAGs fit one page.
		{name: "default page size", dags: 2*emulatedPageSize + 50, q: model.DAGListQuery{Labels: []string{"y", "x"}},
			wantCalls: 1, first: "dag-0000", items: defaultDAGsPerPage, pages: model.Pagination{TotalRecords: 150, CurrentPage: 1, TotalPages: 3, NextPage: 2, PrevPage: 1}},
		// Exactly the bound: every page is read, 667 of them carry y.
		{name: "at the bound", dags: emulatedMaxItems, q: model.DAGListQuery{Labels: []string{"x", "y"}, PerPage: 200},
			wantCalls: emulatedMaxPages, first: "dag-0000", items: 200, pages: model.Pagination{TotalRecords: 667, CurrentPage: 1, TotalPages: 4, NextPage: 2, PrevPage: 1}},
		{name: "one over the bound", dags: emulatedMaxItems + 1, q: model.DAGListQuery{Labels: []string{"x", "y"}, PerPage: 200},
			wantCalls: 1, over: true},
		// y goes to the server: 834 DAGs carry it, well under the bound.
		{name: "over the bound, the rarer label first", dags: emulatedMaxItems + 500, q: model.DAGListQuery{Labels: []string{"y", "x"}, PerPage: 10},
			wantCalls: 5, first: "dag-0000", items: 10, pages: model.Pagination{TotalRecords: 834, CurrentPage: 1, TotalPages: 84, NextPage: 2, PrevPage: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: fakedagu.Profile129, ListedDAGs: labelledDAGs(tt.dags)}, detect: true})
			var got *model.DAGCollection
			var err error
			calls := env.calls(func() { got, err = env.adapter.ListDAGs(context.Background(), tt.q) })
			wantCall := "tag=" + tt.q.Labels[0]
			if len(calls) != tt.wantCalls || slices.ContainsFunc(calls, func(c string) bool { return !strings.Contains(c, wantCall) }) {
				t.Errorf("calls %q, want %d with %s", calls, tt.wantCalls, wantCall)
			}
			if tt.over {
				e := errorOf(t, err)
				if e.Kind != model.FailureUnsupported || e.Field != model.ParamLabels ||
					told(e) != said(model.ReasonLabelScanLimit, tt.q.Labels[0], strconv.Itoa(emulatedMaxItems), strconv.Itoa(tt.dags)) {
					t.Errorf("%+v, want the scan limit on labels", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
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

// labelledDAGs are n listed DAGs dag-0000...: every one carries x, every
// third one y too.
func labelledDAGs(n int) []fakedagu.ListedDAG {
	out := make([]fakedagu.ListedDAG, n)
	for i := range out {
		out[i] = fakedagu.ListedDAG{Name: fmt.Sprintf("dag-%04d", i), Labels: []string{"x"}}
		if i%3 == 0 {
			out[i].Labels = append(out[i].Labels, "y")
		}
	}
	return out
}
