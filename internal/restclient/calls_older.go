// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Routes of older Dagu releases. Dagu 2.0-2.6 call the wiki "docs" and
// answer it in the wiki's shapes; releases before 2.6 search DAGs (and
// 2.0-2.6 docs) with one unpaged call whose q is a regular expression.

// ListDocs reads one page of the docs tree or flat list (GET /docs).
func (c *Client) ListDocs(ctx context.Context, p gen.ListDocsParams) (*gen.WikiPageListResponse, error) {
	res, err := c.api().ListDocs(ctx, &p)
	return decodeJSON[gen.WikiPageListResponse](RouteDocs, res, err)
}

// GetDoc reads one docs page (GET /docs/doc). An empty workspace is not
// sent, which Dagu reads as the default workspace.
func (c *Client) GetDoc(ctx context.Context, workspace, path string) (*gen.WikiPageResponse, error) {
	p := gen.GetDocParams{Workspace: ptr(workspace), Path: path}
	res, err := c.api().GetDoc(ctx, &p)
	return decodeJSON[gen.WikiPageResponse](RouteDoc, res, err)
}

// SearchDocs searches docs pages, cursor paged (GET /search/docs, 2.6).
func (c *Client) SearchDocs(ctx context.Context, p gen.SearchDocsParams) (*gen.WikiPageSearchFeedResponse, error) {
	res, err := c.api().SearchDocs(ctx, &p)
	return decodeJSON[gen.WikiPageSearchFeedResponse](RouteSearchDocs, res, err)
}

// SearchDocsLegacy runs the older unpaged docs search (GET /docs/search).
func (c *Client) SearchDocsLegacy(ctx context.Context, p gen.SearchDocsLegacyParams) (*gen.DocSearchLegacyResponse, error) {
	res, err := c.api().SearchDocsLegacy(ctx, &p)
	return decodeJSON[gen.DocSearchLegacyResponse](RouteSearchDocsLegacy, res, err)
}

// SearchDAGsLegacy runs the older unpaged DAG search (GET /dags/search).
func (c *Client) SearchDAGsLegacy(ctx context.Context, q string) (*gen.DAGSearchLegacyResponse, error) {
	res, err := c.api().SearchDAGsLegacy(ctx, &gen.SearchDAGsLegacyParams{Q: q})
	return decodeJSON[gen.DAGSearchLegacyResponse](RouteSearchDAGsLegacy, res, err)
}
