// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// ForeachQuery filters and pages the items of a foreach step. Zero fields
// are not sent.
type ForeachQuery struct {
	// Parent lists the items of a nested foreach under this item path.
	Parent string
	// Status keeps only items in this bucket.
	Status gen.ForeachStatusBucket
	// Page is 1-based; PerPage is at most 500 on the server.
	Page, PerPage int
}

// ListForeachItems reads a page of a foreach step's items. Only newer Dagu
// servers have this route; older ones answer a router-level 404 (see
// IsRouteMissing).
func (c *Client) ListForeachItems(ctx context.Context, ref RunRef, step string, q ForeachQuery) (*gen.ForeachItemList, error) {
	route := c.RunRoutes(ref).ForeachItems
	if err := ref.check(route, step); err != nil {
		return nil, err
	}
	switch route {
	case RouteForeachItems:
		p := gen.ListForeachItemsParams{Parent: ptr(q.Parent), Status: ptr(q.Status), Page: ptr(q.Page), PerPage: ptr(q.PerPage)}
		res, err := c.api().ListForeachItems(ctx, ref.Name, ref.RunID, step, &p)
		return decodeJSON[gen.ForeachItemList](route, res, err)
	case RouteSubForeachItems:
		p := gen.ListSubDAGRunForeachItemsParams{Parent: ptr(q.Parent), Status: ptr(q.Status), Page: ptr(q.Page), PerPage: ptr(q.PerPage)}
		res, err := c.api().ListSubDAGRunForeachItems(ctx, ref.Name, ref.RunID, ref.SubRunID, step, &p)
		return decodeJSON[gen.ForeachItemList](route, res, err)
	}
	return nil, unknownRoute(route)
}

// GetForeachItem reads one foreach item with its body steps (newer servers
// only). item is the server's opaque item path.
func (c *Client) GetForeachItem(ctx context.Context, ref RunRef, step, item string) (*gen.ForeachItem, error) {
	route := c.RunRoutes(ref).ForeachItem
	if err := ref.check(route, step, item); err != nil {
		return nil, err
	}
	switch route {
	case RouteForeachItem:
		res, err := c.api().GetForeachItem(ctx, ref.Name, ref.RunID, step, item)
		return decodeJSON[gen.ForeachItem](route, res, err)
	case RouteSubForeachItem:
		res, err := c.api().GetSubDAGRunForeachItem(ctx, ref.Name, ref.RunID, ref.SubRunID, step, item)
		return decodeJSON[gen.ForeachItem](route, res, err)
	}
	return nil, unknownRoute(route)
}
