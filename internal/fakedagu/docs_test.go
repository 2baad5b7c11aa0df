// SPDX-License-Identifier: Apache-2.0

package fakedagu_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func TestDocsRoutes(t *testing.T) {
	t.Parallel()
	v26 := startProfile(t, fakedagu.Profile26, nil)
	v20 := startProfile(t, fakedagu.Profile20, nil)
	tests := []struct {
		name   string
		a      api
		path   string
		status int
		list   string // field holding a list of objects with "id"
		ids    []string
	}{
		{"2.6 tree of a workspace", v26, "/docs?workspace=ops", 200, "tree", []string{"oncall"}},
		{"2.6 flat, descending", v26, "/docs?flat=true&order=desc&perPage=2", 200, "items", []string{"runbooks/nightly-export", "runbooks/deploy"}},
		{"2.6 legacy search is a case-sensitive expression", v26, "/docs/search?q=the", 200, "results", []string{"ops/oncall/handbook", "runbooks/deploy"}},
		{"2.6 legacy search, every match", v26, "/docs/search?q=%28%3Fi%29the", 200, "results", []string{"ops/oncall/handbook", "runbooks/deploy", "runbooks/nightly-export"}},
		{"2.6 legacy search in a workspace", v26, "/docs/search?q=%28%3Fi%29the&workspace=default", 200, "results", []string{"runbooks/deploy", "runbooks/nightly-export"}},
		{"2.6 legacy search with an invalid expression", v26, "/docs/search?q=%28", 200, "results", []string{}},
		{"2.6 feed page matches", v26, "/search/docs/matches?q=the&path=runbooks/deploy", 200, "matches", nil},
		{"2.6 missing doc", v26, "/docs/doc?path=nope", 404, "", nil},
		{"2.6 bad workspace", v26, "/docs?workspace=bad%20ws", 400, "", nil},
		{"2.0 workspaces are ignored", v20, "/docs?workspace=ops&flat=true", 200, "items", []string{"index", "oncall/handbook", "runbooks/deploy", "runbooks/nightly-export"}},
		{"2.0 doc at the top level", v20, "/docs/doc?path=oncall/handbook&workspace=ops", 200, "", nil},
		{"2.0 search needs q", v20, "/docs/search", 400, "", nil},
		{"2.0 blank q", v20, "/docs/search?q=%20", 400, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := tt.a.get(t, tt.path)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.ids == nil {
				return
			}
			if got := names(t, ans.object(t)[tt.list], "id"); !slices.Equal(got, tt.ids) {
				t.Errorf("%s = %v, want %v", tt.list, got, tt.ids)
			}
		})
	}
}

func TestDocsFeedCursorWalk(t *testing.T) {
	t.Parallel()
	a := startProfile(t, fakedagu.Profile26, nil)
	var walked []string
	next := "/search/docs?q=the&limit=1"
	for next != "" {
		body := a.get(t, next).object(t)
		walked = append(walked, names(t, body["results"], "id")...)
		next = ""
		if c, ok := body["nextCursor"].(string); ok {
			next = "/search/docs?q=the&limit=1&cursor=" + url.QueryEscape(c)
		}
	}
	if want := []string{"ops/oncall/handbook", "runbooks/deploy", "runbooks/nightly-export"}; !slices.Equal(walked, want) {
		t.Errorf("walked %v, want %v", walked, want)
	}
	if ans := a.get(t, "/search/docs?q=other&cursor="+url.QueryEscape("eyJ2IjoxLCJxIjoidGhlIiwiaWQiOiJvcHMvb25jYWxsL2hhbmRib29rIn0")); ans.status != http.StatusBadRequest {
		t.Errorf("a cursor of another query: %d", ans.status)
	}
}

func TestLegacyDAGSearch(t *testing.T) {
	t.Parallel()
	for _, p := range []fakedagu.Profile{fakedagu.Profile26, fakedagu.Profile20, fakedagu.Profile129, fakedagu.Profile117} {
		t.Run(p.String(), func(t *testing.T) {
			a := startProfile(t, p, nil)
			if ans := a.get(t, "/dags/search"); ans.status != http.StatusBadRequest || !strings.HasPrefix(ans.contentType, "text/plain") {
				t.Errorf("missing q: %d %q", ans.status, ans.contentType)
			}
			body := a.get(t, "/dags/search?q=ECHO").object(t)
			if body["errors"] != nil {
				t.Errorf("errors = %v", body["errors"])
			}
			results := body["results"].([]any)
			got := names(t, results, "name")
			if len(got) == 0 || !slices.IsSorted(got) {
				t.Errorf("results %v are not in file-name order", got)
			}
			for _, r := range results {
				item := r.(map[string]any)
				if _, ok := item["dag"].(map[string]any)["name"]; !ok || len(item["matches"].([]any)) == 0 {
					t.Errorf("result %v lacks its DAG or matches", item)
				}
			}
			if empty := a.get(t, "/dags/search?q=no-such-text").object(t)["results"].([]any); len(empty) != 0 {
				t.Errorf("unmatched query found %v", empty)
			}
		})
	}
}
