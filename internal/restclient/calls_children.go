// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Dagu 1.17 keeps sub-runs ("child DAG-runs") under
// /dag-runs/{name}/{dagRunId}/children/{childDAGRunId}: their details, their
// scheduler log and their step logs, answered in the same shapes as the
// newer /sub-dag-runs routes (familyChild of runRouteTable). It has no
// sub-run list (the parent's nodes[].children name them) and no spec or
// download routes. A missing root or sub-run is a handler's 404 with code
// not_found.

// SetChildRoutes makes RunRoutes read sub-runs through the /children
// routes (on) or the /sub-dag-runs routes (off, the default).
// DetectCapabilities sets it from what the server offers.
func (c *Client) SetChildRoutes(on bool) { c.childRoutes.Store(on) }

// ChildRoutes reports whether sub-runs are read through the /children
// routes of Dagu 1.17.
func (c *Client) ChildRoutes() bool { return c.childRoutes.Load() }

// childRouteSet is whether detection should switch sub-run reads to the
// /children routes: only where those are the server's only sub-run routes.
func childRouteSet(caps Capabilities) bool { return caps.ChildRuns && !caps.SubRuns }

// childRunDetails reads a sub-run with its steps through the /children
// route; ref.SubRunID names the sub-run.
func (c *Client) childRunDetails(ctx context.Context, ref RunRef) (*gen.DAGRunDetailsResponse, error) {
	if err := checkParams(RouteChildRun, ref.Name, ref.RunID, ref.SubRunID); err != nil {
		return nil, err
	}
	res, err := c.api().GetChildDAGRun(ctx, ref.Name, ref.RunID, ref.SubRunID)
	return decodeJSON[gen.DAGRunDetailsResponse](RouteChildRun, res, err)
}

// childRunLog reads a window of a sub-run's scheduler log through the
// /children route.
func (c *Client) childRunLog(ctx context.Context, ref RunRef, w LogWindow) (*gen.Log, error) {
	if err := checkParams(RouteChildRunLog, ref.Name, ref.RunID, ref.SubRunID); err != nil {
		return nil, err
	}
	p := gen.GetChildDAGRunLogParams{Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
	res, err := c.api().GetChildDAGRunLog(ctx, ref.Name, ref.RunID, ref.SubRunID, &p)
	return decodeJSON[gen.Log](RouteChildRunLog, res, err)
}

// childStepLog reads a window of one sub-run step's stdout or stderr
// through the /children route. The stream is always sent.
func (c *Client) childStepLog(ctx context.Context, ref RunRef, step string, stream gen.LogStream, w LogWindow) (*gen.Log, error) {
	if err := checkParams(RouteChildStepLog, ref.Name, ref.RunID, ref.SubRunID, step); err != nil {
		return nil, err
	}
	p := gen.GetChildDAGRunStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
	res, err := c.api().GetChildDAGRunStepLog(ctx, ref.Name, ref.RunID, ref.SubRunID, step, &p)
	return decodeJSON[gen.Log](RouteChildStepLog, res, err)
}
