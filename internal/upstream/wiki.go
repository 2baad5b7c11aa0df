// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// listWiki reads one page of the wiki tree, or of the flat page list
// (1 call). The mode's array is never nil, so an empty wiki answers
// `tree: []` (or `items: []`).
func (a *Adapter) listWiki(ctx context.Context, q model.WikiListQuery) (*model.WikiCollection, error) {
	switch caps := a.capsOrCurrent(); {
	case !caps.Wiki && caps.Docs:
		return a.listDocs(ctx, q, caps)
	case !caps.Wiki:
		return nil, unsupported(restclient.RouteWiki, model.ReasonNoWiki, nil)
	}
	resp, err := a.client.ListWiki(ctx, gen.ListWikiPagesParams{
		Workspace: ptr(namedWorkspace(q.Workspace)),
		Prefix:    ptr(q.Prefix),
		Page:      ptr(q.Page),
		PerPage:   ptr(q.PerPage),
		Flat:      ptr(q.Flat),
		Sort:      ptr(gen.ListWikiPagesParamsSort(q.Sort)),
		Order:     ptr(gen.SortOrder(q.Order)),
	})
	if err != nil {
		err = blameWikiList(err, q.Workspace, q.Prefix)
		return nil, wikiError(err)
	}
	out := mapping.WikiCollection(resp, q.Workspace, q.Flat)
	return &out, nil
}

// blameWikiList names the list input a 400 or 404 concerns, from the
// request alone: a 404 concerns a named workspace (visibility); a 400 a
// named workspace before the prefix, because Dagu checks the workspace
// first and the gateway already applied Dagu's own prefix rules.
func blameWikiList(err error, workspace, prefix string) error {
	switch {
	case namedWorkspace(workspace) != "" && isHTTP(err, http.StatusNotFound, http.StatusBadRequest):
		return withField(err, model.FieldWorkspace)
	case prefix != "" && isHTTP(err, http.StatusBadRequest):
		return withField(err, model.FieldPrefix)
	}
	return err
}

// getWikiPage reads one page (1 call). A 404 blames the path (the page is
// missing); a 400 blames a named workspace (the gateway already applied
// Dagu's own path rules, so a refused name such as a reserved workspace is
// what is left), else the path.
func (a *Adapter) getWikiPage(ctx context.Context, workspace, path string) (*model.WikiPage, error) {
	switch caps := a.capsOrCurrent(); {
	case !caps.Wiki && caps.Docs:
		return a.getDoc(ctx, workspace, path, caps)
	case !caps.Wiki:
		return nil, unsupported(restclient.RouteWikiPage, model.ReasonNoWiki, nil)
	}
	resp, err := a.client.GetWikiPage(ctx, workspace, path)
	if err != nil {
		return nil, wikiError(blameWikiPage(err, workspace))
	}
	out := mapping.WikiPage(resp, workspace)
	return &out, nil
}

func blameWikiPage(err error, workspace string) error {
	if namedWorkspace(workspace) != "" && isHTTP(err, http.StatusBadRequest) {
		return withField(err, model.FieldWorkspace)
	}
	return blame(err, model.FieldPath, http.StatusNotFound, http.StatusBadRequest)
}

// searchWiki searches wiki pages (1 call).
func (a *Adapter) searchWiki(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	switch caps := a.capsOrCurrent(); {
	case !caps.Wiki && caps.SearchDocs && q.Prefix == "":
		return a.searchDocs(ctx, q)
	case !caps.Wiki && caps.SearchDocsLegacy:
		return a.searchDocsLegacy(ctx, q, caps)
	case !caps.Wiki:
		return nil, unsupported(restclient.RouteSearchWiki, model.ReasonNoWiki, nil)
	}
	resp, err := a.client.SearchWiki(ctx, gen.SearchWikiPagesParams{
		Q:         q.Search,
		Workspace: ptr(namedWorkspace(q.Workspace)),
		Prefix:    ptr(q.Prefix),
		Cursor:    ptr(q.Cursor),
		Limit:     ptr(q.Limit),
	})
	if err != nil {
		return nil, wikiError(blameSearch(err, q.Cursor, q.Workspace, wikiSearchBadRequestField(q)))
	}
	out := mapping.WikiSearch(resp, q.Workspace)
	return &out, nil
}

// searchDocs answers wiki_search from the /search/docs feed of Dagu 2.6,
// which takes no prefix (1 call).
func (a *Adapter) searchDocs(ctx context.Context, q model.WikiSearchQuery) (*model.WikiSearch, error) {
	resp, err := a.client.SearchDocs(ctx, gen.SearchDocsParams{
		Q: q.Search, Workspace: ptr(namedWorkspace(q.Workspace)), Cursor: ptr(q.Cursor), Limit: ptr(q.Limit),
	})
	if err != nil {
		return nil, blameSearch(err, q.Cursor, q.Workspace, wikiSearchBadRequestField(q))
	}
	out := mapping.WikiSearch(resp, q.Workspace)
	return &out, nil
}

// wikiSearchBadRequestField is what a wiki search 400 without a cursor is
// about: a named workspace (checked first by Dagu), else the prefix.
func wikiSearchBadRequestField(q model.WikiSearchQuery) string {
	switch {
	case namedWorkspace(q.Workspace) != "":
		return model.FieldWorkspace
	case q.Prefix != "":
		return model.FieldPrefix
	}
	return ""
}

// wikiError recognises a server without a wiki store by route and status
// alone: a 403 on a wiki route that is not the API-key surface refusal
// means the wiki is not enabled there.
func wikiError(err error) error {
	e, ok := restclient.AsError(err)
	if !ok || e.Status != http.StatusForbidden || e.SurfaceDenied {
		return err
	}
	return unsupported(e.Route, model.ReasonWikiDisabled, err)
}
