// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Searches on releases without the cursor-paged search feeds: the older
// routes answer every match of a regular expression in one call, so the
// gateway sends the search text quoted (a literal, as the contract says),
// keeps one preview match per result as the feeds do, and makes the
// contract's limit, cursor and hasMore itself (emulatedMaxItems bound the
// results it keeps).

// searchPage is the window of a search the gateway pages itself.
type searchPage struct {
	offset, limit int
	scope         string
}

// searchWindow reads the caller's cursor and limit for a search bound to
// scope.
func searchWindow(route, cursor string, limit int, scope string) (searchPage, error) {
	w := searchPage{limit: limit, scope: scope}
	if w.limit <= 0 {
		w.limit = defaultSearchLimit
	}
	if cursor == "" {
		return w, nil
	}
	c, err := decodeEmulatedCursor(cursor, scope)
	if err != nil {
		return w, invalidInput(route, model.FieldCursor, model.ReasonBadCursor)
	}
	w.offset = c.Offset
	return w, nil
}

// nextCursor is the cursor of the page after this one, or nil.
func (w searchPage) nextCursor(next int) *string {
	if next == 0 {
		return nil
	}
	c := encodeEmulatedCursor(emulatedCursor{Offset: next, Scope: w.scope})
	return &c
}

// previewOf keeps the first match as the feeds' one preview snippet.
func previewOf(all []gen.SearchMatchItem) ([]gen.SearchMatchItem, bool) {
	if len(all) == 0 {
		return []gen.SearchMatchItem{}, false
	}
	return all[:1], len(all) > 1
}

// searchDAGsLegacy answers dag_search from GET /dags/search (1 call).
// Releases with that route alone have no workspaces.
func (a *Adapter) searchDAGsLegacy(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	route := restclient.RouteSearchDAGsLegacy
	if err := workspaceWithout(route, q.Workspace); err != nil {
		return nil, err
	}
	// "" and "all" are the same search: the cursor's scope must not tell
	// them apart.
	w, err := searchWindow(route, q.Cursor, q.Limit, cursorScope("dag_search", q.Search, namedWorkspace(q.Workspace)))
	if err != nil {
		return nil, err
	}
	// Dagu prefixes the pattern with (?i) itself.
	resp, err := a.client.SearchDAGsLegacy(ctx, regexp.QuoteMeta(q.Search))
	if err != nil {
		return nil, err
	}
	results := resp.Results
	sort.SliceStable(results, func(i, j int) bool { return results[i].Name < results[j].Name })
	results = results[:min(len(results), emulatedMaxItems)]
	page, next := pageOf(results, w.offset, w.limit)
	feed := gen.DAGSearchFeedResponse{Results: make([]gen.DAGSearchPageItem, len(page)), HasMore: next > 0, NextCursor: w.nextCursor(next)}
	for i, r := range page {
		matches, more := previewOf(r.Matches)
		feed.Results[i] = gen.DAGSearchPageItem{FileName: r.Name, Name: r.Name, Matches: matches, HasMoreMatches: more}
	}
	out := mapping.DAGSearch(&feed)
	return &out, nil
}

// searchDocsLegacy answers wiki_search from GET /docs/search (1 call),
// filtering by prefix in the gateway. The route reads q as a
// case-sensitive regular expression, so the text goes quoted behind (?i).
func (a *Adapter) searchDocsLegacy(ctx context.Context, q model.WikiSearchQuery, caps restclient.Capabilities) (*model.WikiSearch, error) {
	route := restclient.RouteSearchDocsLegacy
	params := gen.SearchDocsLegacyParams{Q: "(?i)" + regexp.QuoteMeta(q.Search)}
	if hasWorkspaces(caps) {
		params.Workspace = ptr(namedWorkspace(q.Workspace))
	} else if err := workspaceWithout(route, q.Workspace); err != nil {
		return nil, err
	}
	w, err := searchWindow(route, q.Cursor, q.Limit, cursorScope("wiki_search", q.Search, q.Workspace, q.Prefix))
	if err != nil {
		return nil, err
	}
	resp, err := a.client.SearchDocsLegacy(ctx, params)
	if err != nil {
		return nil, blameSearch(err, "", q.Workspace, wikiSearchBadRequestField(q))
	}
	var kept []gen.DocSearchLegacyItem
	for _, r := range resp.Results {
		if len(kept) < emulatedMaxItems && pageUnderPrefix(r.Id, q.Prefix) {
			kept = append(kept, r)
		}
	}
	page, next := pageOf(kept, w.offset, w.limit)
	feed := gen.WikiPageSearchFeedResponse{Results: make([]gen.WikiPageSearchPageItem, len(page)), HasMore: next > 0, NextCursor: w.nextCursor(next)}
	for i, r := range page {
		matches, more := previewOf(r.Matches)
		feed.Results[i] = gen.WikiPageSearchPageItem{Id: r.Id, Title: r.Title, Workspace: r.Workspace, Matches: matches, HasMoreMatches: more}
	}
	out := mapping.WikiSearch(&feed, q.Workspace)
	return &out, nil
}

// pageUnderPrefix reports whether a page id lies under a path prefix, as
// Dagu's own prefix filter decides (on the id as listed).
func pageUnderPrefix(id, prefix string) bool {
	return prefix == "" || id == prefix || strings.HasPrefix(id, prefix+"/")
}
