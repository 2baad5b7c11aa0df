// SPDX-License-Identifier: Apache-2.0

package fakedagu

// wikiSearchQuery is the parsed query of the wiki search routes.
type wikiSearchQuery struct {
	q, workspace, prefix string
	tags                 []string
	limit                int
	cursor               string
}

func (api pageAPI) searchQuery(c *call, defLimit, maxLimit int) (wikiSearchQuery, bool) {
	var sq wikiSearchQuery
	var ok bool
	if sq.workspace, sq.prefix, ok = api.scope(c); !ok {
		return sq, false
	}
	if sq.q, ok = c.trimmedQuery(); !ok {
		return sq, false
	}
	if !api.docs {
		tags, ok := c.stringParam("tags")
		if !ok {
			return sq, false
		}
		sq.tags = normalizeLabels(tags)
	}
	limit, present, ok := c.intParam("limit")
	if !ok {
		return sq, false
	}
	sq.limit = clampLimit(limit, present, defLimit, maxLimit)
	sq.cursor, ok = c.stringParam("cursor")
	return sq, ok
}

// cursorFor starts a cursor bound to this query.
func (sq wikiSearchQuery) cursorFor(id string, offset int) wikiSearchCursor {
	ws := sq.workspace
	if ws == workspaceAll {
		ws = ""
	}
	return wikiSearchCursor{V: searchCursorVersion, Q: sq.q, Workspace: ws, Prefix: sq.prefix, Tags: sq.tags, ID: id, Offset: offset}
}

// fits reports whether a presented cursor belongs to this query.
func (sq wikiSearchQuery) fits(cur wikiSearchCursor) bool {
	want := sq.cursorFor(cur.ID, cur.Offset)
	return cur.V == want.V && cur.Q == want.Q && cur.Workspace == want.Workspace &&
		cur.Prefix == want.Prefix && sameStrings(cur.Tags, want.Tags) && cur.ID != ""
}

// handleSearchWiki serves GET /search/wiki: one preview match per page, in
// path order.
func (s *Server) handleSearchWiki(c *call) {
	if s.wikiEnabled(c) {
		searchPages(c, s.wikiAPI())
	}
}

// searchPages answers a page search feed.
func searchPages(c *call, api pageAPI) {
	sq, ok := api.searchQuery(c, defaultSearchLimit, maxSearchLimit)
	if !ok {
		return
	}
	cur, ok := presentedCursor(c, sq.cursor, func(cur wikiSearchCursor) bool { return sq.fits(cur) && cur.Offset == 0 })
	if !ok {
		return
	}
	c.ok(feedPage(api.store.entries(sq.workspace), cur.ID, sq.limit, searchFeed[wikiEntry]{
		key: func(e wikiEntry) string { return e.id },
		matches: func(e wikiEntry) []searchMatch {
			if !underPrefix(e.id, sq.prefix) || !hasAllLabels(lowerAll(e.page.tags), sq.tags) {
				return nil
			}
			return findMatches(e.page.content, sq.q)
		},
		item: func(e wikiEntry, m []searchMatch) obj { return api.searchItem(sq, e, m) },
		next: func(last string) string { return encodeCursor(sq.cursorFor(last, 0)) },
	}))
}

func (api pageAPI) searchItem(sq wikiSearchQuery, e wikiEntry, matches []searchMatch) obj {
	item := api.metadata(e)
	item["hasMoreMatches"] = len(matches) > 1
	item["matches"] = matchBodies(matches[:1])
	if len(matches) > 1 {
		item["nextMatchesCursor"] = encodeCursor(sq.cursorFor(e.id, 1))
	}
	return item
}

// handleSearchWikiMatches serves GET /search/wiki/matches: more snippets of
// one page.
func (s *Server) handleSearchWikiMatches(c *call) {
	if s.wikiEnabled(c) {
		searchPageMatches(c, s.wikiAPI())
	}
}

// searchPageMatches answers more snippets of one page.
func searchPageMatches(c *call, api pageAPI) {
	path, ok := c.requiredString("path")
	if !ok {
		return
	}
	sq, ok := api.searchQuery(c, defaultMatchesLimit, maxMatchesLimit)
	if !ok {
		return
	}
	cur, ok := presentedCursor(c, sq.cursor, func(cur wikiSearchCursor) bool {
		return sq.fits(cur) && cur.ID == path && cur.Offset > 0
	})
	if !ok {
		return
	}
	for _, e := range api.store.entries(sq.workspace) {
		if e.id == path {
			c.ok(matchPage(findMatches(e.page.content, sq.q), cur.Offset, sq.limit, func(next int) string {
				return encodeCursor(sq.cursorFor(path, next))
			}))
			return
		}
	}
	c.notFound(api.notFound)
}
