// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// listRuns lists root runs (1 call, shared with identical reads of the
// same window: see listCache).
//
// dagRunId "latest" together with a name reads that DAG's most recent run
// and answers at most that one run. In this form name is matched EXACTLY
// (it keys Dagu's run storage), unlike the substring match of the list;
// the other filters are applied to the run locally, and a DAG without runs
// gives an empty list. Without a name, "latest" is passed on to Dagu as the
// run-ID substring filter it is there.
//
// Otherwise every filter goes to GET /dag-runs. When neither fromDate nor
// toDate is given the gateway sends fromDate = now - RunWindow, reports
// that window in data.window, and wraps the next-page cursor so the next
// page uses the same fromDate (see runCursorPrefix).
func (a *Adapter) listRuns(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	if q.DAGRunID == latestRunID && q.Name != "" {
		return a.latestRun(ctx, q)
	}
	if caps := a.capsOrCurrent(); !caps.RunListFilters && needsRunEmulation(q) {
		return a.listRunsEmulated(ctx, q, caps)
	}
	params, window, err := a.runListParams(q)
	if err != nil {
		return nil, err
	}
	resp, err := a.fetchRunList(ctx, params)
	if err != nil {
		if q.Cursor != "" {
			err = blame(err, model.FieldCursor, http.StatusBadRequest)
		}
		return nil, err
	}
	out := mapping.Runs(resp)
	if window != nil {
		out.Window = &model.RunWindow{From: time.Unix(window.from, 0).UTC().Format(time.RFC3339)}
		if out.NextCursor != "" {
			out.NextCursor = wrapRunCursor(out.NextCursor, window.from)
		}
	}
	return &out, nil
}

// implicitWindow is the window start the gateway chose (Unix seconds).
type implicitWindow struct{ from int64 }

// runListParams builds the REST query. It returns the implicit window when
// the gateway chose one.
func (a *Adapter) runListParams(q model.RunListQuery) (gen.ListDAGRunsParams, *implicitWindow, error) {
	p := gen.ListDAGRunsParams{
		Name:     ptr(q.Name),
		DagRunId: ptr(q.DAGRunID),
		Status:   q.Status,
		FromDate: q.FromDate,
		ToDate:   q.ToDate,
		Limit:    ptr(q.Limit),
		Cursor:   ptr(q.Cursor),
		Labels:   ptr(joinLabels(q.Labels)),
	}
	var wrapped *wrappedRunCursor
	if isWrappedRunCursor(q.Cursor) {
		w, err := unwrapRunCursor(q.Cursor)
		if err != nil {
			return p, nil, invalidInput(restclient.RouteRuns, model.FieldCursor, model.ReasonBadCursor)
		}
		wrapped, p.Cursor = &w, &w.Cursor
	}
	if q.FromDate != nil || q.ToDate != nil {
		// Explicit dates: a wrapped cursor's window is not used; Dagu judges
		// whether its cursor fits these filters.
		return p, nil, nil
	}
	from := a.opts.Now().Add(-a.opts.RunWindow).Unix()
	if wrapped != nil {
		from = wrapped.FromDate
	}
	p.FromDate = &from
	return p, &implicitWindow{from: from}, nil
}

// latestRun answers "latest" with a name: the DAG's newest run, if it
// passes the other filters.
func (a *Adapter) latestRun(ctx context.Context, q model.RunListQuery) (*model.RunCollection, error) {
	d, err := a.latest(ctx, q.Name)
	if isHTTP(err, http.StatusNotFound) {
		return &model.RunCollection{Items: []model.RunItem{}}, nil
	}
	if err != nil {
		return nil, err
	}
	if !latestMatches(d, q) {
		return &model.RunCollection{Items: []model.RunItem{}}, nil
	}
	out := mapping.Runs(&gen.DAGRunsPageResponse{DagRuns: []gen.DAGRunSummary{summaryOfDetails(d)}})
	return &out, nil
}

// latestMatches applies the list filters Dagu would have applied: status,
// the date window (on the run's start, else its queue or schedule time; a
// run with no recorded time is kept) and labels (all required, compared
// case-insensitively as Dagu does).
func latestMatches(d *gen.DAGRunDetails, q model.RunListQuery) bool {
	if len(q.Status) > 0 && !slices.Contains(q.Status, d.Status) {
		return false
	}
	if at, ok := runTime(d); ok {
		if q.FromDate != nil && at.Before(time.Unix(*q.FromDate, 0)) {
			return false
		}
		if q.ToDate != nil && at.After(time.Unix(*q.ToDate, 0)) {
			return false
		}
	}
	return hasLabels(d, q.Labels)
}

func runTime(d *gen.DAGRunDetails) (time.Time, bool) {
	for _, s := range []string{d.StartedAt, deref(d.QueuedAt), deref(d.ScheduleTime)} {
		if at, err := time.Parse(time.RFC3339, s); err == nil {
			return at, true
		}
	}
	return time.Time{}, false
}

func hasLabels(d *gen.DAGRunDetails, want []string) bool {
	have := d.Labels
	if len(have) == 0 {
		have = d.Tags
	}
	for _, w := range want {
		found := slices.ContainsFunc(have, func(h string) bool {
			return strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(w))
		})
		if !found {
			return false
		}
	}
	return true
}

// summaryOfDetails keeps the list-summary fields of a run's details, so the
// one run is mapped exactly like a listed one.
func summaryOfDetails(d *gen.DAGRunDetails) gen.DAGRunSummary {
	return gen.DAGRunSummary{
		ArtifactsAvailable: d.ArtifactsAvailable,
		AutoRetryCount:     d.AutoRetryCount,
		AutoRetryLimit:     d.AutoRetryLimit,
		DagRunId:           d.DagRunId,
		FinishedAt:         d.FinishedAt,
		Labels:             d.Labels,
		Name:               d.Name,
		NoReuse:            d.NoReuse,
		Params:             d.Params,
		ProfileName:        d.ProfileName,
		QueuedAt:           d.QueuedAt,
		ScheduleTime:       d.ScheduleTime,
		StartedAt:          d.StartedAt,
		Status:             d.Status,
		StatusLabel:        d.StatusLabel,
		Tags:               d.Tags,
		TriggerActor:       d.TriggerActor,
		TriggerType:        d.TriggerType,
		WorkerId:           d.WorkerId,
		Workspace:          d.Workspace,
	}
}

// deref reads an optional string; absent is "".
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
