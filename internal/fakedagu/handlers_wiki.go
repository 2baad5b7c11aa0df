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

// wikiEntry is a page as one request sees it: with workspace=all, pages of
// named workspaces are shown under "<workspace>/".
type wikiEntry struct {
	page *wikiPage
	id   string
}

// wikiEnabled answers 403 when the wiki store is not configured.
func (s *Server) wikiEnabled(c *call) bool {
	if s.opts.WikiDisabled {
		c.fail(http.StatusForbidden, codeForbidden, "Wiki page management is not available")
		return false
	}
	return true
}

// wikiEntries lists the pages a workspace selector covers, by shown ID.
func (s *Server) wikiEntries(ws string) []wikiEntry {
	var out []wikiEntry
	for _, p := range s.data.wiki.pages {
		switch {
		case ws == workspaceAll && p.workspace != "":
			out = append(out, wikiEntry{p, p.workspace + "/" + p.id})
		case ws == workspaceAll, ws == workspaceDefault && p.workspace == "", ws == p.workspace:
			out = append(out, wikiEntry{p, p.id})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// underPrefix reports whether a shown ID lies under a prefix.
func underPrefix(id, prefix string) bool {
	return prefix == "" || id == prefix || strings.HasPrefix(id, prefix+"/")
}

// wikiListQuery is the parsed query of GET /wiki.
type wikiListQuery struct {
	workspace, prefix, sortBy string
	tags                      []string
	page, perPage             int
	flat, desc                bool
}

func (c *call) wikiListQuery() (wikiListQuery, bool) {
	var q wikiListQuery
	var ok bool
	if q.workspace, ok = c.workspaceParam(); !ok {
		return q, false
	}
	if q.prefix, ok = c.prefixParam(); !ok {
		return q, false
	}
	page, _, ok := c.intParam("page")
	if !ok {
		return q, false
	}
	perPage, _, ok := c.intParam("perPage")
	if !ok {
		return q, false
	}
	q.page, q.perPage = max(page, 1), perPage
	if perPage <= 0 {
		q.perPage = defaultWikiPerPage
	}
	q.perPage = min(q.perPage, maxWikiPerPage)
	if q.flat, ok = c.boolParam("flat"); !ok {
		return q, false
	}
	tags, ok := c.stringParam("tags")
	if !ok {
		return q, false
	}
	q.tags = normalizeLabels(tags)
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
	if !s.wikiEnabled(c) {
		return
	}
	q, ok := c.wikiListQuery()
	if !ok {
		return
	}
	var entries []wikiEntry
	for _, e := range s.wikiEntries(q.workspace) {
		if underPrefix(e.id, q.prefix) && hasAllLabels(lowerAll(e.page.tags), q.tags) {
			entries = append(entries, e)
		}
	}
	if q.flat {
		s.writeFlatWiki(c, q, entries)
		return
	}
	root := buildWikiTree(s.data.wiki, q.workspace, q.prefix, entries)
	root.sortChildren(q.sortBy, q.desc)
	start := min((q.page-1)*q.perPage, len(root.children))
	end := min(start+q.perPage, len(root.children))
	nodes := arr{}
	for _, n := range root.children[start:end] {
		nodes = append(nodes, n.body())
	}
	c.ok(obj{"tree": nodes, "pagination": pagination(len(root.children), q.page, q.perPage)})
}

func (s *Server) writeFlatWiki(c *call, q wikiListQuery, entries []wikiEntry) {
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
		items = append(items, pageMetadata(e))
	}
	c.ok(obj{"items": items, "pagination": pagination(len(entries), q.page, q.perPage)})
}

// pageMetadata is a page in the WikiPageMetadataResponse shape.
func pageMetadata(e wikiEntry) obj {
	item := obj{"id": e.id, "title": e.page.title, "description": e.page.description, "modifiedAt": e.page.modifiedAt}
	addPageScope(item, e.page)
	return item
}

// addPageScope adds the optional workspace and tags of a page.
func addPageScope(body obj, p *wikiPage) {
	if p.workspace != "" {
		body["workspace"] = p.workspace
	}
	if len(p.tags) > 0 {
		body["tags"] = stringsToArr(p.tags)
	}
}

// handleWikiPage serves GET /wiki/page.
func (s *Server) handleWikiPage(c *call) {
	if !s.wikiEnabled(c) {
		return
	}
	p, ok := s.lookupWikiPage(c)
	if !ok {
		return
	}
	body := obj{
		"id": p.id, "title": p.title, "description": p.description, "content": p.content,
		"createdAt": p.createdAt, "updatedAt": p.updatedAt,
	}
	addPageScope(body, p)
	c.ok(body)
}

// lookupWikiPage resolves workspace and path to one page; it answers the
// error and returns false when it cannot.
func (s *Server) lookupWikiPage(c *call) (*wikiPage, bool) {
	ws, ok := c.workspaceParam()
	if !ok {
		return nil, false
	}
	path, ok := c.requiredString("path")
	if !ok {
		return nil, false
	}
	if _, given := c.query["workspace"]; !given {
		ws = workspaceDefault
	}
	if ws == workspaceAll {
		c.badRequest("workspace=all cannot target a single Wiki page")
		return nil, false
	}
	if err := validatePagePath(path); err != nil {
		c.badRequest("invalid page path: " + err.Error())
		return nil, false
	}
	for _, e := range s.wikiEntries(ws) {
		if e.id == path {
			return e.page, true
		}
	}
	c.notFound("Wiki page not found")
	return nil, false
}
