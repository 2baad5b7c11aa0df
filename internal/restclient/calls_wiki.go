// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// ListWiki reads one page of the Wiki tree or flat list (GET /wiki).
func (c *Client) ListWiki(ctx context.Context, p gen.ListWikiPagesParams) (*gen.WikiPageListResponse, error) {
	res, err := c.api().ListWikiPages(ctx, &p)
	return decodeJSON[gen.WikiPageListResponse](RouteWiki, res, err)
}

// GetWikiPage reads one page (GET /wiki/page). An empty workspace is not
// sent, which Dagu reads as the default workspace.
func (c *Client) GetWikiPage(ctx context.Context, workspace, path string) (*gen.WikiPageResponse, error) {
	p := gen.GetWikiPageParams{Workspace: ptr(workspace), Path: path}
	res, err := c.api().GetWikiPage(ctx, &p)
	return decodeJSON[gen.WikiPageResponse](RouteWikiPage, res, err)
}

// SearchWiki searches Wiki pages (GET /search/wiki).
func (c *Client) SearchWiki(ctx context.Context, p gen.SearchWikiPagesParams) (*gen.WikiPageSearchFeedResponse, error) {
	res, err := c.api().SearchWikiPages(ctx, &p)
	return decodeJSON[gen.WikiPageSearchFeedResponse](RouteSearchWiki, res, err)
}
