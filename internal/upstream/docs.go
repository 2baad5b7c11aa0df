// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// The wiki of Dagu 2.0-2.6 is served under /docs in the wiki's shapes
// (without descriptions and tags). /docs takes no prefix, so a prefixed
// listing reads the whole list (at most emulatedMaxPages pages) and the
// gateway filters and pages it the way Dagu's /wiki does.

// listDocs answers the wiki target from GET /docs.
func (a *Adapter) listDocs(ctx context.Context, q model.WikiListQuery, caps restclient.Capabilities) (*model.WikiCollection, error) {
	params := gen.ListDocsParams{
		Page: ptr(q.Page), PerPage: ptr(q.PerPage), Flat: ptr(q.Flat),
		Sort: ptr(gen.ListDocsParamsSort(q.Sort)), Order: ptr(gen.SortOrder(q.Order)),
	}
	if hasWorkspaces(caps) {
		params.Workspace = ptr(namedWorkspace(q.Workspace))
	} else if err := workspaceWithout(restclient.RouteDocs, q.Workspace); err != nil {
		return nil, err
	}
	var resp *gen.WikiPageListResponse
	var err error
	if q.Prefix == "" {
		resp, err = a.client.ListDocs(ctx, params)
	} else {
		resp, err = a.prefixedDocs(ctx, params, q)
	}
	if err != nil {
		return nil, blameWikiList(err, q.Workspace, "")
	}
	out := mapping.WikiCollection(resp, q.Workspace, q.Flat)
	return &out, nil
}

// prefixedDocs reads every page of the listing and keeps what lies under
// the prefix: in flat mode the pages whose id is under it, in tree mode the
// content of the prefix directory; then it cuts the caller's page.
func (a *Adapter) prefixedDocs(ctx context.Context, params gen.ListDocsParams, q model.WikiListQuery) (*gen.WikiPageListResponse, error) {
	params.PerPage, params.Page = ptr(emulatedPageSize), nil
	var items []gen.WikiPageMetadata
	var tree []gen.WikiPageTreeNode
	for page := 1; page <= emulatedMaxPages; page++ {
		params.Page = ptr(page)
		resp, err := a.client.ListDocs(ctx, params)
		if err != nil {
			return nil, err
		}
		items, tree = append(items, resp.Items...), append(tree, resp.Tree...)
		if resp.Pagination.TotalPages <= page {
			break
		}
	}
	perPage, page := q.PerPage, max(q.Page, 1)
	if perPage <= 0 {
		perPage = defaultWikiPerPage
	}
	out := &gen.WikiPageListResponse{}
	if q.Flat {
		var kept []gen.WikiPageMetadata
		for _, it := range items {
			if pageUnderPrefix(it.Id, q.Prefix) {
				kept = append(kept, it)
			}
		}
		out.Items, _ = pageOf(kept, (page-1)*perPage, perPage)
		out.Pagination = listPagination(len(kept), page, perPage)
		return out, nil
	}
	under := subtree(tree, q.Prefix)
	out.Tree, _ = pageOf(under, (page-1)*perPage, perPage)
	out.Pagination = listPagination(len(under), page, perPage)
	return out, nil
}

// subtree finds the directory node with the prefix as id and returns its
// children (nil when there is none).
func subtree(nodes []gen.WikiPageTreeNode, prefix string) []gen.WikiPageTreeNode {
	for _, n := range nodes {
		switch {
		case n.Id == prefix && n.Type == "directory":
			return n.Children
		case pageUnderPrefix(prefix, n.Id):
			if found := subtree(n.Children, prefix); found != nil {
				return found
			}
		}
	}
	return nil
}

// listPagination is Dagu's pagination object for a list the gateway paged.
func listPagination(total, page, perPage int) gen.Pagination {
	pages := max(1, (total+perPage-1)/perPage)
	return gen.Pagination{TotalRecords: total, CurrentPage: page, TotalPages: pages,
		NextPage: min(page+1, pages), PrevPage: max(page-1, 1)}
}

// getDoc answers wiki_page from GET /docs/doc.
func (a *Adapter) getDoc(ctx context.Context, workspace, path string, caps restclient.Capabilities) (*model.WikiPage, error) {
	sent := workspace
	if !hasWorkspaces(caps) {
		if err := workspaceWithout(restclient.RouteDoc, workspace); err != nil {
			return nil, err
		}
		sent = ""
	}
	resp, err := a.client.GetDoc(ctx, sent, path)
	if err != nil {
		return nil, blameWikiPage(err, sent)
	}
	out := mapping.WikiPage(resp, workspace)
	return &out, nil
}
