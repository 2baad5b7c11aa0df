// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// DAG name listing: pages of the largest size Dagu serves, and a bound on
// how many are read for one suggestion list.
const (
	namesPerPage  = 200
	namesMaxPages = 20
	// namesConcurrency bounds the pages read at once: a list of many pages
	// must not fill the REST client's concurrency cap.
	namesConcurrency = 8
)

// listDAGs reads one page of the DAG collection (1 call, shared with
// identical reads: see listCache), with the labels in the release's label
// filter. Several labels on a release that filters by one take up to
// emulatedMaxPages calls (see dags_legacy.go).
func (a *Adapter) listDAGs(ctx context.Context, q model.DAGListQuery) (*model.DAGCollection, error) {
	p, rest := dagListParams(gen.ListDAGsParams{
		Page:    ptr(q.Page),
		PerPage: ptr(q.PerPage),
		Name:    ptr(q.Name),
		Sort:    ptr(gen.ListDAGsParamsSort(q.Sort)),
		Order:   ptr(gen.SortOrder(q.Order)),
	}, normalizeLabels(q.Labels), a.capsOrCurrent())
	var resp *gen.DAGListResponse
	var err error
	if len(rest) > 0 {
		resp, err = a.dagsWithAllLabels(ctx, p, rest)
	} else {
		resp, err = a.fetchDAGList(ctx, p)
	}
	if err != nil {
		return nil, err
	}
	out := mapping.DAGs(resp)
	return &out, nil
}

// getDAG reads one DAG by file name (1 call, shared with identical reads:
// see listCache).
func (a *Adapter) getDAG(ctx context.Context, name string) (*model.DAGDetail, error) {
	resp, err := a.fetchDAG(ctx, name)
	if err != nil {
		return nil, blame(err, model.FieldName, http.StatusNotFound, http.StatusBadRequest)
	}
	out := mapping.DAGDetail(name, resp)
	return &out, nil
}

// getDAGSpec reads a DAG's YAML (1 call; the spec cache keeps it, dagcache.go).
func (a *Adapter) getDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	resp, err := a.client.GetDAGSpec(ctx, name)
	if err != nil {
		return nil, blame(notFoundByCode(err), model.FieldName, http.StatusNotFound, http.StatusBadRequest)
	}
	out := mapping.DAGSpec(name, resp)
	return &out, nil
}

// dagNames lists every DAG file name for did-you-mean suggestions (the
// name cache keeps the list, dagcache.go). It reads up to namesMaxPages
// pages of namesPerPage names.
func (a *Adapter) dagNames(ctx context.Context) ([]string, error) {
	return a.loadDAGNames(ctx)
}

// loadDAGNames reads the first page, which tells how many there are, and
// then the other pages together (see namePages), so a server with up to
// namesConcurrency+1 pages of DAGs is listed in two round trips, not one
// per page. Names come in page
// order; a page with no DAGs ends the list, and a list that grew while it
// was read is followed to its new last page.
func (a *Adapter) loadDAGNames(ctx context.Context) ([]string, error) {
	first, err := a.namePage(ctx, 1)
	if err != nil {
		return nil, err
	}
	names := mapping.DAGNames(first)
	last := first.Pagination.TotalPages
	for next := 2; len(first.Dags) > 0 && next <= min(last, namesMaxPages); {
		upTo := min(last, namesMaxPages)
		pages, err := a.namePages(ctx, next, upTo)
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			if len(p.Dags) == 0 {
				return names, nil
			}
			names = append(names, mapping.DAGNames(p)...)
			last = max(last, p.Pagination.TotalPages)
		}
		next = upTo + 1
	}
	return names, nil
}

// namePage reads one page of DAG names (1 call).
func (a *Adapter) namePage(ctx context.Context, page int) (*gen.DAGListResponse, error) {
	return a.client.ListDAGs(ctx, gen.ListDAGsParams{Page: ptr(page), PerPage: ptr(namesPerPage)})
}

// namePages reads the pages from..to, at most namesConcurrency at a time,
// in page order; the first failure ends them all.
func (a *Adapter) namePages(ctx context.Context, from, to int) ([]*gen.DAGListResponse, error) {
	pages := make([]*gen.DAGListResponse, to-from+1)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(namesConcurrency)
	for i := range pages {
		g.Go(func() (err error) {
			pages[i], err = a.namePage(gctx, from+i)
			return err
		})
	}
	return pages, g.Wait()
}

// searchDAGs searches DAG definitions (1 call). A 400 on a request that
// carried a cursor blames the cursor (Dagu binds it to the query); a 404
// for a named workspace blames the workspace.
func (a *Adapter) searchDAGs(ctx context.Context, q model.DAGSearchQuery) (*model.DAGSearch, error) {
	if caps := a.capsOrCurrent(); !caps.SearchDAGs && caps.SearchDAGsLegacy {
		return a.searchDAGsLegacy(ctx, q)
	}
	resp, err := a.client.SearchDAGs(ctx, gen.SearchDAGsParams{
		Q:         q.Search,
		Workspace: ptr(namedWorkspace(q.Workspace)),
		Cursor:    ptr(q.Cursor),
		Limit:     ptr(q.Limit),
	})
	if err != nil {
		return nil, blameSearch(err, q.Cursor, q.Workspace, dagSearchBadRequestField(q))
	}
	out := mapping.DAGSearch(resp)
	return &out, nil
}

// blameSearch names the search input a 400 or 404 concerns. Dagu binds a
// cursor to the query it came from, so a 400 on a request with a cursor
// blames the cursor; a 404 for a named workspace blames the workspace.
// otherBadRequest is the field any other 400 concerns ("" for none).
func blameSearch(err error, cursor, workspace, otherBadRequest string) error {
	switch {
	case cursor != "" && isHTTP(err, http.StatusBadRequest):
		return withField(err, model.FieldCursor)
	case namedWorkspace(workspace) != "" && isHTTP(err, http.StatusNotFound):
		return withField(err, model.FieldWorkspace)
	case otherBadRequest != "" && isHTTP(err, http.StatusBadRequest):
		return withField(err, otherBadRequest)
	}
	return err
}

// dagSearchBadRequestField is what a DAG search 400 without a cursor is
// about: the only other value Dagu checks is a named workspace.
func dagSearchBadRequestField(q model.DAGSearchQuery) string {
	if namedWorkspace(q.Workspace) != "" {
		return model.FieldWorkspace
	}
	return ""
}

// namedWorkspace is ws unless it means "every workspace" ("" or "all"),
// which is not sent.
func namedWorkspace(ws string) string {
	if ws == model.AllWorkspaces {
		return ""
	}
	return ws
}

// joinLabels writes a label filter the way Dagu reads it: one
// comma-separated value.
func joinLabels(labels []string) string { return strings.Join(labels, ",") }
