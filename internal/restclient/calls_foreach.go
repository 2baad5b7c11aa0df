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
	if ref.IsSub() {
		if err := ref.check(RouteSubForeachItems, step); err != nil {
			return nil, err
		}
		p := gen.ListSubDAGRunForeachItemsParams{Parent: ptr(q.Parent), Status: ptr(q.Status), Page: ptr(q.Page), PerPage: ptr(q.PerPage)}
		res, err := c.api().ListSubDAGRunForeachItemsWithResponse(ctx, ref.Name, ref.RunID, ref.SubRunID, step, &p)
		return decoded[gen.ForeachItemList](RouteSubForeachItems, res, err)
	}
	if err := ref.check(RouteForeachItems, step); err != nil {
		return nil, err
	}
	p := gen.ListForeachItemsParams{Parent: ptr(q.Parent), Status: ptr(q.Status), Page: ptr(q.Page), PerPage: ptr(q.PerPage)}
	res, err := c.api().ListForeachItemsWithResponse(ctx, ref.Name, ref.RunID, step, &p)
	return decoded[gen.ForeachItemList](RouteForeachItems, res, err)
}

// GetForeachItem reads one foreach item with its body steps (newer servers
// only). item is the server's opaque item path.
func (c *Client) GetForeachItem(ctx context.Context, ref RunRef, step, item string) (*gen.ForeachItem, error) {
	if ref.IsSub() {
		if err := ref.check(RouteSubForeachItem, step, item); err != nil {
			return nil, err
		}
		res, err := c.api().GetSubDAGRunForeachItemWithResponse(ctx, ref.Name, ref.RunID, ref.SubRunID, step, item)
		return decoded[gen.ForeachItem](RouteSubForeachItem, res, err)
	}
	if err := ref.check(RouteForeachItem, step, item); err != nil {
		return nil, err
	}
	res, err := c.api().GetForeachItemWithResponse(ctx, ref.Name, ref.RunID, step, item)
	return decoded[gen.ForeachItem](RouteForeachItem, res, err)
}

// GetForeachBodyStepLog reads a window of one body step's log for one
// foreach item (newer servers only).
func (c *Client) GetForeachBodyStepLog(ctx context.Context, ref RunRef, step, item, bodyStep string, stream gen.LogStream, w LogWindow) (*gen.Log, error) {
	if ref.IsSub() {
		if err := ref.check(RouteSubForeachBodyLog, step, item, bodyStep); err != nil {
			return nil, err
		}
		p := gen.GetSubDAGRunForeachBodyStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetSubDAGRunForeachBodyStepLogWithResponse(ctx, ref.Name, ref.RunID, ref.SubRunID, step, item, bodyStep, &p)
		return decoded[gen.Log](RouteSubForeachBodyLog, res, err)
	}
	if err := ref.check(RouteForeachBodyLog, step, item, bodyStep); err != nil {
		return nil, err
	}
	p := gen.GetForeachBodyStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
	res, err := c.api().GetForeachBodyStepLogWithResponse(ctx, ref.Name, ref.RunID, step, item, bodyStep, &p)
	return decoded[gen.Log](RouteForeachBodyLog, res, err)
}
