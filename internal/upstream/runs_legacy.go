// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Releases before 2.6 take one status value on /dag-runs (a repeated one
// is refused) and ignore labels, limit and cursor. When a runs read needs
// any of them the gateway reads the window's whole list (one call, at most
// emulatedMaxItems runs kept) and filters and pages it itself; labels are
// matched through the DAG list's label filter, because run summaries of
// those releases carry no labels.

// needsRunEmulation reports whether an older server would get the query
// wrong.
func needsRunEmulation(q model.RunListQuery) bool {
	return len(q.Status) > 1 || len(q.Labels) > 0 || q.Limit > 0 || q.Cursor != ""
}

// listRunsEmulated answers a runs read for a server without run-list
// filters: 1 call, plus the DAG-list calls of a label filter.
func (a *Adapter) listRunsEmulated(ctx context.Context, q model.RunListQuery, caps restclient.Capabilities) (*model.RunCollection, error) {
	scope := runScope(q)
	offset, from, err := a.emulatedRunWindow(q, scope)
	if err != nil {
		return nil, err
	}
	p := gen.ListDAGRunsParams{Name: ptr(q.Name), DagRunId: ptr(q.DAGRunID), FromDate: q.FromDate, ToDate: q.ToDate}
	if from != 0 {
		p.FromDate = &from
	}
	if len(q.Status) == 1 {
		p.Status = q.Status
	}
	resp, err := a.fetchRunList(ctx, p)
	if err != nil {
		return nil, err
	}
	runs, err := a.filterRuns(ctx, resp.DagRuns, q, caps)
	if err != nil {
		return nil, err
	}
	page, next := pageOf(runs, offset, q.Limit)
	out := mapping.Runs(&gen.DAGRunsPageResponse{DagRuns: page})
	if next > 0 {
		out.NextCursor = encodeEmulatedCursor(emulatedCursor{Offset: next, Scope: scope, From: from})
	}
	if from != 0 {
		out.Window = &model.RunWindow{From: time.Unix(from, 0).UTC().Format(time.RFC3339)}
	}
	return &out, nil
}

// emulatedRunWindow reads the caller's cursor and settles the window: the
// caller's dates, else the cursor's implicit window, else a new one.
func (a *Adapter) emulatedRunWindow(q model.RunListQuery, scope string) (offset int, from int64, err error) {
	explicit := q.FromDate != nil || q.ToDate != nil
	if !explicit {
		from = a.opts.Now().Add(-a.opts.RunWindow).Unix()
	}
	if q.Cursor == "" {
		return 0, from, nil
	}
	c, cerr := decodeEmulatedCursor(q.Cursor, scope)
	if cerr != nil || (explicit && c.From != 0) || (!explicit && c.From == 0) {
		return 0, 0, invalidInput(restclient.RouteRuns, model.FieldCursor, model.ReasonBadCursor)
	}
	if !explicit {
		from = c.From
	}
	return c.Offset, from, nil
}

// runScope binds an emulated cursor to every filter of the query.
func runScope(q model.RunListQuery) string {
	dates := func(p *int64) string {
		if p == nil {
			return ""
		}
		return fmt.Sprint(*p)
	}
	return cursorScope("runs", q.Name, q.DAGRunID, fmt.Sprint(q.Status), strings.Join(q.Labels, ","),
		dates(q.FromDate), dates(q.ToDate))
}

// filterRuns applies the status set and the labels the server ignored,
// keeping at most emulatedMaxItems runs.
func (a *Adapter) filterRuns(ctx context.Context, runs []gen.DAGRunSummary, q model.RunListQuery, caps restclient.Capabilities) ([]gen.DAGRunSummary, error) {
	var names map[string]bool
	if len(q.Labels) > 0 {
		var err error
		if names, err = a.dagNamesWithLabels(ctx, q.Labels, caps); err != nil {
			return nil, err
		}
	}
	kept := make([]gen.DAGRunSummary, 0, min(len(runs), emulatedMaxItems))
	for _, r := range runs {
		if len(kept) == emulatedMaxItems {
			break
		}
		if len(q.Status) > 1 && !slices.Contains(q.Status, r.Status) {
			continue
		}
		if names != nil && !names[r.Name] {
			continue
		}
		kept = append(kept, r)
	}
	return kept, nil
}

// dagNamesWithLabels lists the names of the DAGs that carry every label,
// through the DAG list's own label filter (one label per listing, at most
// emulatedMaxPages pages each).
func (a *Adapter) dagNamesWithLabels(ctx context.Context, labels []string, caps restclient.Capabilities) (map[string]bool, error) {
	var names map[string]bool
	for _, label := range labels {
		found, err := a.dagNamesWithLabel(ctx, label, dagLabelParam(caps))
		if err != nil {
			return nil, err
		}
		if names == nil {
			names = found
			continue
		}
		for n := range names {
			if !found[n] {
				delete(names, n)
			}
		}
	}
	return names, nil
}

func (a *Adapter) dagNamesWithLabel(ctx context.Context, label, param string) (map[string]bool, error) {
	names := map[string]bool{}
	for page := 1; page <= emulatedMaxPages; page++ {
		p := withLabelFilter(gen.ListDAGsParams{Page: ptr(page), PerPage: ptr(emulatedPageSize)}, param, label)
		resp, err := a.client.ListDAGs(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, d := range resp.Dags {
			names[d.Dag.Name] = true
		}
		if resp.Pagination.TotalPages <= page {
			break
		}
	}
	return names, nil
}
