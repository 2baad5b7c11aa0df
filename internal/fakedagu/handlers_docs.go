// SPDX-License-Identifier: Apache-2.0

package fakedagu

// Docs routes of Dagu 2.0 and 2.6, the wiki's predecessor: the same pages
// and handlers as the wiki in the docs shapes (see pages.go).

// handleDocs serves GET /docs as a tree (default) or a flat list.
func (s *Server) handleDocs(c *call) { s.listPages(c, s.docsAPI()) }

// handleDoc serves GET /docs/doc?path=.
func (s *Server) handleDoc(c *call) {
	api := s.docsAPI()
	if p, ok := api.lookupPage(c); ok {
		c.ok(api.pageBody(p))
	}
}

// handleSearchDocs serves GET /search/docs (2.6): the wiki search feed in
// the docs shapes.
func (s *Server) handleSearchDocs(c *call) { searchPages(c, s.docsAPI()) }

// handleSearchDocsMatches serves GET /search/docs/matches (2.6).
func (s *Server) handleSearchDocsMatches(c *call) { searchPageMatches(c, s.docsAPI()) }

// handleDocsSearch serves the older GET /docs/search?q=: every page with a
// line matching the regular expression q (case-sensitive), in path
// order, with all its matches; no paging.
func (s *Server) handleDocsSearch(c *call) {
	api := s.docsAPI()
	ws, ok := api.workspace(c)
	if !ok {
		return
	}
	q, ok := c.trimmedQuery()
	if !ok {
		return
	}
	results := arr{}
	for _, e := range api.store.entries(ws) {
		if matches := findPatternMatches(e.page.content, q); len(matches) > 0 {
			item := api.metadata(e)
			item["matches"] = matchBodies(matches)
			results = append(results, item)
		}
	}
	c.ok(obj{"results": results})
}
