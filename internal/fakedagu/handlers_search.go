// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "net/http"

const (
	defaultSearchLimit  = 20
	maxSearchLimit      = 50
	defaultMatchesLimit = 5
	maxMatchesLimit     = 50
)

// dagSearchQuery is the parsed query of the DAG search routes.
type dagSearchQuery struct {
	q, workspace string
	labels       []string
	limit        int
	cursor       string
}

func (c *call) dagSearchQuery(defLimit, maxLimit int) (dagSearchQuery, bool) {
	var sq dagSearchQuery
	var ok bool
	if sq.q, ok = c.trimmedQuery(); !ok {
		return sq, false
	}
	limit, present, ok := c.intParam("limit")
	if !ok {
		return sq, false
	}
	sq.limit = clampLimit(limit, present, defLimit, maxLimit)
	if sq.labels, ok = c.labelsParam(); !ok {
		return sq, false
	}
	if sq.workspace, ok = c.workspaceParam(); !ok {
		return sq, false
	}
	sq.cursor, ok = c.stringParam("cursor")
	return sq, ok
}

// cursorFor starts a cursor bound to this query.
func (sq dagSearchQuery) cursorFor(fileName string, offset int) dagSearchCursor {
	ws := sq.workspace
	if ws == workspaceAll {
		ws = ""
	}
	return dagSearchCursor{V: searchCursorVersion, Q: sq.q, Workspace: ws, Labels: sq.labels, FileName: fileName, Offset: offset}
}

// fits reports whether a presented cursor belongs to this query.
func (sq dagSearchQuery) fits(cur dagSearchCursor) bool {
	want := sq.cursorFor(cur.FileName, cur.Offset)
	return cur.V == want.V && cur.Q == want.Q && cur.Workspace == want.Workspace &&
		sameStrings(cur.Labels, want.Labels) && cur.FileName != ""
}

// searchableDAGs lists the DAGs a DAG search covers, in file-name order.
func (s *Server) searchableDAGs(sq dagSearchQuery) []*dagRecord {
	if !workspaceHoldsDefault(sq.workspace) {
		return nil
	}
	var out []*dagRecord
	for _, d := range s.data.dags {
		if s.visibleDAG(d) && hasAllLabels(d.labels, sq.labels) {
			out = append(out, d)
		}
	}
	return out
}

// handleSearchDAGs serves GET /search/dags: one preview match per DAG.
func (s *Server) handleSearchDAGs(c *call) {
	sq, ok := c.dagSearchQuery(defaultSearchLimit, maxSearchLimit)
	if !ok {
		return
	}
	cur, ok := presentedCursor(c, sq.cursor, func(cur dagSearchCursor) bool { return sq.fits(cur) && cur.Offset == 0 })
	if !ok {
		return
	}
	c.ok(feedPage(s.searchableDAGs(sq), cur.FileName, sq.limit, searchFeed[*dagRecord]{
		key:     func(d *dagRecord) string { return d.fileName },
		matches: func(d *dagRecord) []searchMatch { return findMatches(d.spec, sq.q) },
		item:    func(d *dagRecord, m []searchMatch) obj { return dagSearchItem(sq, d, m) },
		next:    func(last string) string { return encodeCursor(sq.cursorFor(last, 0)) },
	}))
}

func dagSearchItem(sq dagSearchQuery, d *dagRecord, matches []searchMatch) obj {
	item := obj{
		"fileName":       d.fileName,
		"name":           d.name,
		"hasMoreMatches": len(matches) > 1,
		"matches":        matchBodies(matches[:1]),
	}
	if len(matches) > 1 {
		item["nextMatchesCursor"] = encodeCursor(sq.cursorFor(d.fileName, 1))
	}
	return item
}

// handleSearchDAGMatches serves GET /search/dags/{fileName}/matches.
func (s *Server) handleSearchDAGMatches(c *call) {
	name, ok := s.validDAGFileName(c)
	if !ok {
		return
	}
	sq, ok := c.dagSearchQuery(defaultMatchesLimit, maxMatchesLimit)
	if !ok {
		return
	}
	cur, ok := presentedCursor(c, sq.cursor, func(cur dagSearchCursor) bool {
		return sq.fits(cur) && cur.FileName == name && cur.Offset > 0
	})
	if !ok {
		return
	}
	d := s.dag(name)
	if d == nil || !workspaceHoldsDefault(sq.workspace) {
		c.notFound("DAG not found")
		return
	}
	c.ok(matchPage(findMatches(d.spec, sq.q), cur.Offset, sq.limit, func(next int) string {
		return encodeCursor(sq.cursorFor(name, next))
	}))
}

// searchFeed is how a search feed reads its entries: each entry's key (the
// feed is in key order, and a cursor continues after a key), the lines of
// it that match (none: the entry is left out), its result, and the cursor
// that continues after a key.
type searchFeed[E any] struct {
	key     func(E) string
	matches func(E) []searchMatch
	item    func(E, []searchMatch) obj
	next    func(last string) string
}

// feedPage answers one page of a search feed (DAGs, wiki pages): the
// entries after the key after that match, at most limit of them, and
// whether more follow with the cursor that reads them.
func feedPage[E any](entries []E, after string, limit int, f searchFeed[E]) obj {
	results := arr{}
	last := ""
	for _, e := range entries {
		if f.key(e) <= after {
			continue
		}
		matches := f.matches(e)
		if len(matches) == 0 {
			continue
		}
		if len(results) == limit {
			return obj{"results": results, "hasMore": true, "nextCursor": f.next(last)}
		}
		results = append(results, f.item(e, matches))
		last = f.key(e)
	}
	return obj{"results": results, "hasMore": false}
}

// matchPage pages a match list in the SearchMatchesResponse shape.
func matchPage(all []searchMatch, offset, limit int, cursorAt func(int) string) obj {
	start := min(offset, len(all))
	end := min(start+limit, len(all))
	body := obj{"matches": matchBodies(all[start:end]), "hasMore": end < len(all)}
	if end < len(all) {
		body["nextCursor"] = cursorAt(end)
	}
	return body
}

// Workspace selectors of list and search routes.
const (
	workspaceAll     = "all"
	workspaceDefault = "default"
	maxWorkspaceLen  = 64
)

// workspaceParam validates the workspace selector (default "all").
func (c *call) workspaceParam() (string, bool) {
	ws, ok := c.stringParam("workspace")
	if !ok {
		return "", false
	}
	if ws == "" {
		return workspaceAll, true
	}
	if len(ws) > maxWorkspaceLen || !workspaceNamePattern.MatchString(ws) {
		c.fail(http.StatusBadRequest, codeBadRequest, "invalid workspace: "+ws)
		return "", false
	}
	return ws, true
}

// workspaceHoldsDefault reports whether a selector covers the default
// workspace, where every DAG of the fake lives.
func workspaceHoldsDefault(ws string) bool {
	return ws == workspaceAll || ws == workspaceDefault
}
