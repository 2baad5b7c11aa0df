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
	after := ""
	if sq.cursor != "" {
		var cur dagSearchCursor
		if decodeCursor(sq.cursor, &cur) != nil || !sq.fits(cur) || cur.Offset != 0 {
			c.badRequest(errBadCursor.Error())
			return
		}
		after = cur.FileName
	}
	results := arr{}
	hasMore := false
	last := ""
	for _, d := range s.searchableDAGs(sq) {
		if d.fileName <= after {
			continue
		}
		matches := findMatches(d.spec, sq.q)
		if len(matches) == 0 {
			continue
		}
		if len(results) == sq.limit {
			hasMore = true
			break
		}
		results = append(results, dagSearchItem(sq, d, matches))
		last = d.fileName
	}
	body := obj{"results": results, "hasMore": hasMore}
	if hasMore {
		body["nextCursor"] = encodeCursor(sq.cursorFor(last, 0))
	}
	c.ok(body)
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
	offset := 0
	if sq.cursor != "" {
		var cur dagSearchCursor
		if decodeCursor(sq.cursor, &cur) != nil || !sq.fits(cur) || cur.FileName != name || cur.Offset <= 0 {
			c.badRequest(errBadCursor.Error())
			return
		}
		offset = cur.Offset
	}
	d := s.dag(name)
	if d == nil || !workspaceHoldsDefault(sq.workspace) {
		c.notFound("DAG not found")
		return
	}
	c.ok(matchPage(findMatches(d.spec, sq.q), offset, sq.limit, func(next int) string {
		return encodeCursor(sq.cursorFor(name, next))
	}))
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
