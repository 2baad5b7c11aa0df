// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// RunRef addresses a root run, or a sub-run through its root.
type RunRef struct {
	// Name is the DAG name the root run is stored under.
	Name string
	// RunID is the root run's ID; "latest" works only where Dagu allows it
	// (GetRun, GetRunSpec, GetRunOutputs).
	RunID string
	// SubRunID, when set, selects a sub-run of the root run.
	SubRunID string
}

// IsSub reports whether the reference is to a sub-run.
func (r RunRef) IsSub() bool { return r.SubRunID != "" }

// check refuses unusable path parameters of the reference.
func (r RunRef) check(route string, extra ...string) error {
	values := append([]string{r.Name, r.RunID}, extra...)
	if r.IsSub() {
		values = append(values, r.SubRunID)
	}
	return checkParams(route, values...)
}

// LogWindow selects lines of a log. Zero fields are not sent; Dagu then
// returns the first 1000 lines. Precedence on the server: Tail, then Head,
// then Offset (with Limit), then Limit alone.
type LogWindow struct {
	Tail, Head, Offset, Limit int
}

// ListRuns reads one page of root runs (GET /dag-runs).
func (c *Client) ListRuns(ctx context.Context, p gen.ListDAGRunsParams) (*gen.DAGRunsPageResponse, error) {
	res, err := c.api().ListDAGRuns(ctx, &p)
	return decodeJSON[gen.DAGRunsPageResponse](RouteRuns, res, err)
}

// ListRunsByName reads one page of the runs of exactly one DAG name
// (GET /dag-runs/{name}).
func (c *Client) ListRunsByName(ctx context.Context, name string, p gen.ListDAGRunsByNameParams) (*gen.DAGRunsPageResponse, error) {
	if err := checkParams(RouteRunsByName, name); err != nil {
		return nil, err
	}
	res, err := c.api().ListDAGRunsByName(ctx, name, &p)
	return decodeJSON[gen.DAGRunsPageResponse](RouteRunsByName, res, err)
}

// GetRun reads a run with its steps (GET /dag-runs/{name}/{dagRunId}, or
// the sub-run form; see RunRoutes).
func (c *Client) GetRun(ctx context.Context, ref RunRef) (*gen.DAGRunDetails, error) {
	body, err := c.runDetails(ctx, ref)
	if err != nil {
		return nil, err
	}
	return &body.DagRunDetails, nil
}

func (c *Client) runDetails(ctx context.Context, ref RunRef) (*gen.DAGRunDetailsResponse, error) {
	route := c.RunRoutes(ref).Details
	if err := ref.check(route); err != nil {
		return nil, err
	}
	switch route {
	case RouteRun:
		res, err := c.api().GetDAGRun(ctx, ref.Name, ref.RunID)
		return decodeJSON[gen.DAGRunDetailsResponse](route, res, err)
	case RouteSubRun:
		res, err := c.api().GetSubDAGRun(ctx, ref.Name, ref.RunID, ref.SubRunID)
		return decodeJSON[gen.DAGRunDetailsResponse](route, res, err)
	case RouteChildRun:
		return c.childRunDetails(ctx, ref)
	}
	return nil, unknownRoute(route)
}

// GetRunSpec reads the YAML a run (or sub-run) was started from.
func (c *Client) GetRunSpec(ctx context.Context, ref RunRef) (string, error) {
	body, err := c.runSpec(ctx, ref)
	if err != nil {
		return "", err
	}
	return body.Spec, nil
}

func (c *Client) runSpec(ctx context.Context, ref RunRef) (*gen.DAGRunSpecResponse, error) {
	route := c.RunRoutes(ref).Spec
	if err := ref.check(route); err != nil {
		return nil, err
	}
	switch route {
	case RouteRunSpec:
		res, err := c.api().GetDAGRunSpec(ctx, ref.Name, ref.RunID)
		return decodeJSON[gen.DAGRunSpecResponse](route, res, err)
	case RouteSubRunSpec:
		res, err := c.api().GetSubDAGRunSpec(ctx, ref.Name, ref.RunID, ref.SubRunID)
		return decodeJSON[gen.DAGRunSpecResponse](route, res, err)
	}
	return nil, unknownRoute(route)
}

// GetRunOutputs reads a root run's collected outputs and attempt metadata
// (GET /dag-runs/{name}/{dagRunId}/outputs). Sub-runs have no such route.
func (c *Client) GetRunOutputs(ctx context.Context, name, runID string) (*gen.DAGRunOutputs, error) {
	if err := checkParams(RouteRunOutputs, name, runID); err != nil {
		return nil, err
	}
	res, err := c.api().GetDAGRunOutputs(ctx, name, runID)
	return decodeJSON[gen.DAGRunOutputs](RouteRunOutputs, res, err)
}

// GetRunLog reads a window of a run's (or sub-run's) scheduler log. The
// run ID must be concrete, not "latest".
func (c *Client) GetRunLog(ctx context.Context, ref RunRef, w LogWindow) (*gen.Log, error) {
	route := c.RunRoutes(ref).SchedulerLog
	if err := ref.check(route); err != nil {
		return nil, err
	}
	switch route {
	case RouteRunLog:
		p := gen.GetDAGRunLogParams{Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetDAGRunLog(ctx, ref.Name, ref.RunID, &p)
		return decodeJSON[gen.Log](route, res, err)
	case RouteSubRunLog:
		p := gen.GetSubDAGRunLogParams{Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetSubDAGRunLog(ctx, ref.Name, ref.RunID, ref.SubRunID, &p)
		return decodeJSON[gen.Log](route, res, err)
	case RouteChildRunLog:
		return c.childRunLog(ctx, ref, w)
	}
	return nil, unknownRoute(route)
}

// GetStepLog reads a window of one step's stdout or stderr in a run or
// sub-run, or of a foreach body step's (newer servers only; see
// StepLogRoute). The stream is always sent (some servers fail without it).
func (c *Client) GetStepLog(ctx context.Context, s StepRef, stream gen.LogStream, w LogWindow) (*gen.Log, error) {
	route := c.StepLogRoute(s)
	if err := s.check(route); err != nil {
		return nil, err
	}
	r := s.Run
	switch route {
	case RouteStepLog:
		p := gen.GetDAGRunStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetDAGRunStepLog(ctx, r.Name, r.RunID, s.Step, &p)
		return decodeJSON[gen.Log](route, res, err)
	case RouteSubStepLog:
		p := gen.GetSubDAGRunStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetSubDAGRunStepLog(ctx, r.Name, r.RunID, r.SubRunID, s.Step, &p)
		return decodeJSON[gen.Log](route, res, err)
	case RouteChildStepLog:
		return c.childStepLog(ctx, r, s.Step, stream, w)
	case RouteForeachBodyLog:
		p := gen.GetForeachBodyStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetForeachBodyStepLog(ctx, r.Name, r.RunID, s.Step, s.Item, s.BodyStep, &p)
		return decodeJSON[gen.Log](route, res, err)
	case RouteSubForeachBodyLog:
		p := gen.GetSubDAGRunForeachBodyStepLogParams{Stream: stream, Tail: ptr(w.Tail), Head: ptr(w.Head), Offset: ptr(w.Offset), Limit: ptr(w.Limit)}
		res, err := c.api().GetSubDAGRunForeachBodyStepLog(ctx, r.Name, r.RunID, r.SubRunID, s.Step, s.Item, s.BodyStep, &p)
		return decodeJSON[gen.Log](route, res, err)
	}
	return nil, unknownRoute(route)
}

// ListSubRuns lists the sub-runs a root run started, or, when ref names a
// sub-run, the sub-runs that sub-run started.
func (c *Client) ListSubRuns(ctx context.Context, ref RunRef) ([]gen.SubDAGRunDetail, error) {
	if err := checkParams(RouteSubRuns, ref.Name, ref.RunID); err != nil {
		return nil, err
	}
	p := gen.ListSubDAGRunsParams{ParentSubDAGRunId: ptr(ref.SubRunID)}
	res, err := c.api().ListSubDAGRuns(ctx, ref.Name, ref.RunID, &p)
	body, err := decodeJSON[gen.SubDAGRunsResponse](RouteSubRuns, res, err)
	if err != nil {
		return nil, err
	}
	return body.SubRuns, nil
}

// DownloadStepLog reads one step's whole stdout or stderr file as raw
// bytes (run or sub-run), failing (Error.BodyLimit) past limit bytes. A
// limit <= 0 or above Config.MaxResponseBytes means MaxResponseBytes.
func (c *Client) DownloadStepLog(ctx context.Context, ref RunRef, step string, stream gen.LogStream, limit int64) ([]byte, error) {
	route := c.RunRoutes(ref).StepDownload
	if err := ref.check(route, step); err != nil {
		return nil, err
	}
	var res *http.Response
	var err error
	switch route {
	case RouteStepLogDownload:
		p := gen.DownloadDAGRunStepLogParams{Stream: ptr(stream)}
		res, err = c.api().DownloadDAGRunStepLog(ctx, ref.Name, ref.RunID, step, &p)
	case RouteSubStepDownload:
		p := gen.DownloadSubDAGRunStepLogParams{Stream: ptr(stream)}
		res, err = c.api().DownloadSubDAGRunStepLog(ctx, ref.Name, ref.RunID, ref.SubRunID, step, &p)
	default:
		return nil, unknownRoute(route)
	}
	if err != nil {
		return nil, decodeError(route, err)
	}
	defer res.Body.Close()
	if limit <= 0 || limit > c.cfg.MaxResponseBytes {
		limit = c.cfg.MaxResponseBytes
	}
	return readCapped(ctx, res.Body, route, limit)
}
