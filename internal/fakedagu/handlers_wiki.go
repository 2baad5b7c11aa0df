// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http"
	"sort"
	"strings"
)

const (
	defaultWikiPerPage = 50
	maxWikiPerPage     = 200
)

// wikiEnabled answers 403 when the wiki store is not configured.
func (s *Server) wikiEnabled(c *call) bool {
	if s.opts.WikiDisabled {
		c.fail(http.StatusForbidden, codeForbidden, "Wiki page management is not available")
		return false
	}
	return true
}

// wikiListQuery is the parsed query of GET /wiki and GET /docs.
type wikiListQuery struct {
	workspace, prefix, sortBy string
	tags                      []string
	page, perPage             int
	flat, desc                bool
}

func (api pageAPI) listQuery(c *call) (wikiListQuery, bool) {
	var q wikiListQuery
	var ok bool
	if q.workspace, q.prefix, ok = api.scope(c); !ok {
		return q, false
	}
	if q.page, q.perPage, ok = c.pageParams(defaultWikiPerPage, maxWikiPerPage); !ok {
		return q, false
	}
	if q.flat, ok = c.boolParam("flat"); !ok {
		return q, false
	}
	if !api.docs {
		tags, ok := c.stringParam("tags")
		if !ok {
			return q, false
		}
		q.tags = normalizeLabels(tags)
	}
	if q.sortBy, ok = c.stringParam("sort"); !ok {
		return q, false
	}
	order, ok := c.stringParam("order")
	q.desc = order == "desc"
	return q, ok
}

// prefixParam validates the optional prefix as a page path.
func (c *call) prefixParam() (string, bool) {
	prefix, ok := c.stringParam("prefix")
	if !ok || prefix == "" {
		return prefix, ok
	}
	prefix = strings.Trim(prefix, "/")
	if err := validatePagePath(prefix); err != nil {
		c.badRequest("invalid page path: " + err.Error())
		return "", false
	}
	return prefix, true
}

// handleWiki serves GET /wiki as a tree (default) or a flat list.
func (s *Server) handleWiki(c *call) {
	if s.wikiEnabled(c) {
		s.listPages(c, s.wikiAPI())
	}
}

// listPages answers a page list as a tree or a flat list.
func (s *Server) listPages(c *call, api pageAPI) {
	q, ok := api.listQuery(c)
	if !ok {
		return
	}
	var entries []wikiEntry
	for _, e := range api.store.entries(q.workspace) {
		if underPrefix(e.id, q.prefix) && hasAllLabels(lowerAll(e.page.tags), q.tags) {
			entries = append(entries, e)
		}
	}
	if q.flat {
		writeFlatPages(c, api, q, entries)
		return
	}
	root := buildWikiTree(api.store, q.workspace, q.prefix, entries)
	root.sortChildren(q.sortBy, q.desc)
	start := min((q.page-1)*q.perPage, len(root.children))
	end := min(start+q.perPage, len(root.children))
	nodes := arr{}
	for _, n := range root.children[start:end] {
		nodes = append(nodes, n.body(!api.docs))
	}
	c.ok(obj{"tree": nodes, "pagination": pagination(len(root.children), q.page, q.perPage)})
}

func writeFlatPages(c *call, api pageAPI, q wikiListQuery, entries []wikiEntry) {
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if q.desc {
			a, b = b, a
		}
		if q.sortBy == "mtime" && a.page.modifiedAt != b.page.modifiedAt {
			return a.page.modifiedAt < b.page.modifiedAt
		}
		return a.id < b.id
	})
	start := min((q.page-1)*q.perPage, len(entries))
	end := min(start+q.perPage, len(entries))
	items := arr{}
	for _, e := range entries[start:end] {
		items = append(items, api.metadata(e))
	}
	c.ok(obj{"items": items, "pagination": pagination(len(entries), q.page, q.perPage)})
}

// handleWikiPage serves GET /wiki/page.
func (s *Server) handleWikiPage(c *call) {
	if !s.wikiEnabled(c) {
		return
	}
	api := s.wikiAPI()
	if p, ok := api.lookupPage(c); ok {
		c.ok(api.pageBody(p))
	}
}
