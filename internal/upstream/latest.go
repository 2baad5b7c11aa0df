// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// latest resolves a DAG's most recent run. With the run cache and the list
// micro-cache both on (and the current REST API), it first reads the DAG's
// newest run summary (GET /dag-runs/{name}?limit=1: a small answer, shared
// like any list read for ListCacheTTL) and answers from the run cache when
// that run is final there and the summary shows it unchanged, so a
// finished latest run costs no full read. Otherwise it reads the latest
// alias (one full read; see runSource.latest), which also notes the run.
func (a *Adapter) latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
	if !a.latestFromCaches() {
		return a.runs.latest(ctx, name)
	}
	if s, ok := a.newestSummary(ctx, name); ok {
		d, cached := a.runs.cached(ctx, restclient.RunRef{Name: name, RunID: s.DagRunId})
		if cached && sameState(s.Status, s.StartedAt, s.FinishedAt, s.AutoRetryCount, d) {
			return d, nil
		}
	}
	return a.runs.latest(ctx, name)
}

// latestFromCaches reports whether latest may answer from the caches: the
// run cache and the list micro-cache are both on, on the current REST API.
func (a *Adapter) latestFromCaches() bool {
	return a.lists.store != nil && a.runs.store.enabled() && a.capsOrCurrent().APIBase == restclient.APIv1
}

// newestRunQuery is the list-cache key of a newest-run summary read.
type newestRunQuery struct {
	Name   string
	Params gen.ListDAGRunsByNameParams
}

// newestSummary reads the summary of a DAG's newest run (1 shared call);
// false when the DAG has none or the read failed (the caller then reads
// the latest alias, which reports the failure).
func (a *Adapter) newestSummary(ctx context.Context, name string) (*gen.DAGRunSummary, bool) {
	var all gen.FromDate
	one := gen.RunListLimit(1)
	p := gen.ListDAGRunsByNameParams{FromDate: &all, Limit: &one}
	resp, err := sharedRead(ctx, a, restclient.RouteRunsByName, newestRunQuery{Name: name, Params: p},
		func(ctx context.Context) (*gen.DAGRunsPageResponse, error) {
			return a.client.ListRunsByName(ctx, name, p)
		})
	if err != nil || len(resp.DagRuns) == 0 {
		return nil, false
	}
	return &resp.DagRuns[0], true
}
