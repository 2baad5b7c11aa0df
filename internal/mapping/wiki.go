// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Workspace selector values with a fixed meaning.
const (
	allWorkspaces    = "all"
	defaultWorkspace = "default"
)

// WikiCollection maps one page of GET /wiki (tree or flat mode). workspace
// is the selected workspace: a concrete name, or "" or "all" for every
// workspace; it decides how page URIs are built (see wikiPageURI). Only
// pages carry a URI; directories do not. Ids stay as Dagu gave them.
// flat says which mode was asked for: its list is always present, even
// empty (Dagu omits an empty one), and the other is left out.
func WikiCollection(resp *gen.WikiPageListResponse, workspace string, flat bool) model.WikiCollection {
	var out model.WikiCollection
	if resp != nil {
		out.Pagination = pagination(resp.Pagination)
	}
	if flat {
		out.Items = []model.WikiItem{}
		if resp != nil {
			out.Items = wikiItems(resp.Items, workspace)
		}
		return out
	}
	out.Tree = []model.WikiNode{}
	if resp != nil {
		out.Tree = wikiNodes(resp.Tree, workspace)
	}
	return out
}

func wikiNodes(in []gen.WikiPageTreeNode, workspace string) []model.WikiNode {
	out := make([]model.WikiNode, len(in))
	for i := range in {
		n := &in[i]
		out[i] = model.WikiNode{
			ID:         n.Id,
			Name:       n.Name,
			Type:       n.Type,
			Title:      str(n.Title),
			Tags:       n.Tags,
			Workspace:  str(n.Workspace),
			ModifiedAt: timePtr(n.ModifiedAt),
		}
		if n.Type == "file" {
			out[i].URI = wikiPageURI(workspace, n.Workspace, n.Id)
		}
		if len(n.Children) > 0 {
			out[i].Children = wikiNodes(n.Children, workspace)
		}
	}
	return out
}

func wikiItems(in []gen.WikiPageMetadata, workspace string) []model.WikiItem {
	out := make([]model.WikiItem, len(in))
	for i := range in {
		p := &in[i]
		out[i] = model.WikiItem{
			ID:          p.Id,
			URI:         wikiPageURI(workspace, p.Workspace, p.Id),
			Title:       p.Title,
			Description: p.Description,
			Tags:        p.Tags,
			Workspace:   str(p.Workspace),
			ModifiedAt:  timePtr(p.ModifiedAt),
		}
	}
	return out
}

// WikiPage maps GET /wiki/page. workspace is the requested (concrete)
// workspace: Dagu returns the id relative to it, so the URI pairs the two.
func WikiPage(resp *gen.WikiPageResponse, workspace string) model.WikiPage {
	if resp == nil {
		return model.WikiPage{MimeType: "text/markdown"}
	}
	return model.WikiPage{
		ID:          resp.Id,
		Content:     resp.Content,
		MimeType:    "text/markdown",
		URI:         model.WikiPageURI(workspace, resp.Id),
		Title:       resp.Title,
		Description: resp.Description,
		Tags:        resp.Tags,
		Workspace:   str(resp.Workspace),
		CreatedAt:   timePtr(resp.CreatedAt),
		UpdatedAt:   timePtr(resp.UpdatedAt),
	}
}

// WikiSearch maps one page of GET /search/wiki; workspace is the selected
// workspace, as for WikiCollection. Results and matches are always arrays.
func WikiSearch(resp *gen.WikiPageSearchFeedResponse, workspace string) model.WikiSearch {
	if resp == nil {
		return model.WikiSearch{Results: []model.WikiSearchResult{}}
	}
	results := make([]model.WikiSearchResult, len(resp.Results))
	for i := range resp.Results {
		r := &resp.Results[i]
		results[i] = model.WikiSearchResult{
			ID:             r.Id,
			URI:            wikiPageURI(workspace, r.Workspace, r.Id),
			Title:          r.Title,
			Description:    r.Description,
			Tags:           r.Tags,
			Workspace:      str(r.Workspace),
			ModifiedAt:     timePtr(r.ModifiedAt),
			Matches:        matches(r.Matches),
			HasMoreMatches: r.HasMoreMatches,
		}
	}
	return model.WikiSearch{
		Results:    results,
		HasMore:    resp.HasMore,
		NextCursor: str(resp.NextCursor),
	}
}

// wikiPageURI names a listed page. With a concrete selected workspace, Dagu
// gives ids relative to it, so both are used as they are. Across all
// workspaces, the page's reported workspace is used (absent means the
// default workspace); Dagu then prefixes the id with "<workspace>/", which
// is stripped, but only when a workspace was reported: a default-workspace
// id is already relative.
func wikiPageURI(selected string, reported *string, id string) string {
	if selected != "" && selected != allWorkspaces {
		return model.WikiPageURI(selected, id)
	}
	ws := str(reported)
	if ws == "" {
		return model.WikiPageURI(defaultWorkspace, id)
	}
	return model.WikiPageURI(ws, stripWorkspace(id, ws))
}

// stripWorkspace removes a leading "<ws>/" from id, unless nothing would
// remain of it.
func stripWorkspace(id, ws string) string {
	if len(id) > len(ws)+1 && id[len(ws)] == '/' && strings.HasPrefix(id, ws) {
		return id[len(ws)+1:]
	}
	return id
}
