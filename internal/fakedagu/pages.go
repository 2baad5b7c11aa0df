// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"sort"
	"strings"
)

// The wiki (current) and its predecessor, the docs (2.0 and 2.6), serve
// the same pages through the same handlers; a pageAPI says which one a
// request reads and how its answers differ: docs answers carry no
// description and no modification times, 2.6 docs pages show their
// filePath, and 2.0 docs have no workspaces.

// pageAPI is the wiki or the docs of one server.
type pageAPI struct {
	store      *wikiStore
	docs       bool   // docs shapes (no description, no modifiedAt)
	workspaces bool   // binds the workspace selector
	notFound   string // message of a missing page
}

// wikiAPI is the current wiki.
func (s *Server) wikiAPI() pageAPI {
	return pageAPI{store: s.data.wiki, workspaces: true, notFound: "Wiki page not found"}
}

// docsAPI is the docs of 2.0 and 2.6.
func (s *Server) docsAPI() pageAPI {
	return pageAPI{store: s.data.docs, docs: true, workspaces: s.dialect.docsWorkspaces, notFound: "Document not found"}
}

// wikiEntry is a page as one request sees it: with workspace=all, pages of
// named workspaces are shown under "<workspace>/".
type wikiEntry struct {
	page *wikiPage
	id   string
}

// entries lists the pages a workspace selector covers, by shown ID.
func (store *wikiStore) entries(ws string) []wikiEntry {
	var out []wikiEntry
	for _, p := range store.pages {
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

// workspace binds the workspace selector (default "all"); APIs without
// workspaces ignore it.
func (api pageAPI) workspace(c *call) (string, bool) {
	if !api.workspaces {
		return workspaceAll, true
	}
	return c.workspaceParam()
}

// scope binds the pages a list or search covers: the workspace, and the
// path prefix of the wiki (the older docs routes take none).
func (api pageAPI) scope(c *call) (workspace, prefix string, ok bool) {
	if workspace, ok = api.workspace(c); !ok || api.docs {
		return workspace, "", ok
	}
	prefix, ok = c.prefixParam()
	return workspace, prefix, ok
}

// metadata is a page in the list item shape (WikiPageMetadataResponse,
// or the docs item without description and modifiedAt).
func (api pageAPI) metadata(e wikiEntry) obj {
	item := obj{"id": e.id, "title": e.page.title}
	if !api.docs {
		item["description"] = e.page.description
		item["modifiedAt"] = e.page.modifiedAt
	}
	addPageScope(item, e.page)
	return item
}

// pageBody is one page with its content.
func (api pageAPI) pageBody(p *wikiPage) obj {
	body := obj{"id": p.id, "title": p.title, "content": p.content, "createdAt": p.createdAt, "updatedAt": p.updatedAt}
	if !api.docs {
		body["description"] = p.description
	}
	if api.docs && api.store.fileRoot != "" {
		body["filePath"] = api.store.fileRoot + "/" + joinPath(p.workspace, p.id) + ".md"
	}
	addPageScope(body, p)
	return body
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

// underPrefix reports whether a shown ID lies under a prefix.
func underPrefix(id, prefix string) bool {
	return prefix == "" || id == prefix || strings.HasPrefix(id, prefix+"/")
}

// lookupPage resolves workspace and path to one page; it answers the
// error and returns false when it cannot.
func (api pageAPI) lookupPage(c *call) (*wikiPage, bool) {
	ws, ok := api.workspace(c)
	if !ok {
		return nil, false
	}
	path, ok := c.requiredString("path")
	if !ok {
		return nil, false
	}
	if _, given := c.query["workspace"]; !given || !api.workspaces {
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
	for _, e := range api.store.entries(ws) {
		if e.id == path {
			return e.page, true
		}
	}
	c.notFound(api.notFound)
	return nil, false
}
