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

func TestWikiLists(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	tests := []struct {
		name, query, list string
		want              []string
		total             int
	}{
		{"default workspace, flat", "?workspace=default&flat=true", "items", []string{"index", "runbooks/deploy", "runbooks/nightly-export"}, 3},
		{"flat, descending", "?flat=true&order=desc&perPage=2", "items", []string{"runbooks/nightly-export", "runbooks/deploy"}, 4},
		{"flat by modification time", "?flat=true&sort=mtime", "items", []string{"runbooks/nightly-export", "runbooks/deploy", "index", "ops/oncall/handbook"}, 4},
		{"tree sorted by name", "?sort=name", "tree", []string{"index", "ops", "runbooks"}, 3},
		{"tree under a prefix", "?prefix=runbooks", "tree", []string{"runbooks/deploy", "runbooks/nightly-export"}, 2},
		{"tree of a named workspace", "?workspace=ops", "tree", []string{"oncall"}, 1},
		{"empty workspace", "?workspace=nobody&flat=true", "items", []string{}, 0},
		{"tags filter", "?flat=true&tags=none", "items", []string{}, 0},
		{"paging the tree", "?perPage=1&page=2", "tree", []string{"runbooks"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := a.get(t, "/wiki"+tt.query)
			if ans.status != http.StatusOK {
				t.Fatalf("status %d: %s", ans.status, ans.body)
			}
			body := ans.object(t)
			if got := names(t, body[tt.list], "id"); !slices.Equal(got, tt.want) {
				t.Errorf("%s = %v, want %v", tt.list, got, tt.want)
			}
			if got := number(body["pagination"].(map[string]any), "totalRecords"); got != tt.total {
				t.Errorf("totalRecords = %d, want %d", got, tt.total)
			}
		})
	}
}

func TestWikiErrors(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	off := startAPI(t, func(o *fakedagu.Options) { o.WikiDisabled = true })
	tests := []struct {
		name   string
		a      api
		path   string
		status int
		want   string
	}{
		{"bad workspace", a, "/wiki?workspace=a.b", http.StatusBadRequest, "invalid workspace: a.b"},
		{"long workspace", a, "/wiki?workspace=" + strings.Repeat("w", 65), http.StatusBadRequest, ""},
		{"bad prefix", a, "/wiki?prefix=" + url.QueryEscape("bad/seg."), http.StatusBadRequest, `invalid page path: segment "seg." ends with a space or dot`},
		{"device name", a, "/wiki/page?path=nul", http.StatusBadRequest, `invalid page path: segment "nul" is a reserved name`},
		{"all on a page", a, "/wiki/page?path=index&workspace=all", http.StatusBadRequest, "workspace=all cannot target a single Wiki page"},
		{"missing page", a, "/wiki/page?path=runbooks/missing", http.StatusNotFound, "Wiki page not found"},
		{"page of another workspace", a, "/wiki/page?path=oncall/handbook", http.StatusNotFound, "Wiki page not found"},
		{"disabled list", off, "/wiki", http.StatusForbidden, "Wiki page management is not available"},
		{"disabled page", off, "/wiki/page?path=index", http.StatusForbidden, "Wiki page management is not available"},
		{"disabled search", off, "/search/wiki?q=x", http.StatusForbidden, "Wiki page management is not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := tt.a.get(t, tt.path)
			if ans.status != tt.status {
				t.Fatalf("status %d, want %d: %s", ans.status, tt.status, ans.body)
			}
			if tt.want != "" && ans.message(t) != tt.want {
				t.Errorf("message %q, want %q", ans.message(t), tt.want)
			}
		})
	}
	if ans := a.get(t, "/wiki/page"); ans.status != http.StatusBadRequest || string(ans.body) != "Query argument path is required, but not found\n" {
		t.Errorf("missing path: %d %q", ans.status, ans.body)
	}
}

func TestWikiSearchCursor(t *testing.T) {
	t.Parallel()
	a := startAPI(t, nil)
	var ids []string
	path := "/search/wiki?q=the&limit=1"
	for range 10 {
		body := a.get(t, path).object(t)
		ids = append(ids, names(t, body["results"], "id")...)
		next, ok := body["nextCursor"].(string)
		if !ok {
			break
		}
		path = "/search/wiki?q=the&limit=1&cursor=" + url.QueryEscape(next)
	}
	if want := []string{"ops/oncall/handbook", "runbooks/deploy", "runbooks/nightly-export"}; !slices.Equal(ids, want) {
		t.Errorf("walked %v, want %v", ids, want)
	}
	first := a.get(t, "/search/wiki?q=the&limit=1").object(t)["nextCursor"].(string)
	for _, q := range []string{"q=The&limit=1", "q=the&prefix=runbooks", "q=the&workspace=default"} {
		if ans := a.get(t, "/search/wiki?"+q+"&cursor="+url.QueryEscape(first)); ans.message(t) != "invalid search cursor" {
			t.Errorf("%s: %d %s", q, ans.status, ans.body)
		}
	}
	scoped := a.get(t, "/search/wiki?q=the&workspace=ops").object(t)
	if got := names(t, scoped["results"], "id"); !slices.Equal(got, []string{"oncall/handbook"}) {
		t.Errorf("workspace ops: %v", got)
	}
	matches := a.get(t, "/search/wiki/matches?q=the&path=runbooks/deploy&workspace=default").object(t)
	if len(matches["matches"].([]any)) != 2 || matches["hasMore"] != false {
		t.Errorf("page matches: %v", matches)
	}
}
