// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// hintKey names a DAG as one credential sees it. Hints stay local: a
// replica's hint only tells it which of its cached runs to try.
type hintKey struct {
	credential string
	name       string
}

// latestHints remember, per credential and DAG, the run the DAG's latest
// run last resolved to, so that resolving "latest" again can try the run
// cache first. A nil *latestHints (the run cache is off) remembers
// nothing.
type latestHints struct {
	c      *cache.Cache[scoped[hintKey], string]
	scope  string
	grants *grantBook // whether a credential's hints may be used
}

// get returns the run the DAG's latest run last resolved to.
func (h *latestHints) get(ctx context.Context, k hintKey) (string, bool) {
	if h == nil || !h.grants.usable(ctx, k.credential) {
		return "", false
	}
	return h.c.Get(scoped[hintKey]{scope: h.scope, key: k})
}

// add remembers the run the DAG's latest run resolved to.
func (h *latestHints) add(k hintKey, runID string) {
	if h != nil && runID != "" {
		h.c.Add(scoped[hintKey]{scope: h.scope, key: k}, runID)
	}
}

// latest resolves a DAG's most recent run. With the run cache and the list
// micro-cache both on (and the current REST API), when the DAG's latest run
// was last resolved to a run the run cache holds (see latestHints), it
// first reads the DAG's newest run summary (GET /dag-runs/{name}?limit=1: a
// small answer, shared like any list read for ListCacheTTL) and answers
// from the run cache when that run is final there and the summary shows it
// unchanged, so a finished latest run costs no full read. Otherwise it
// reads the latest alias (one full read; see restRuns.latest), which also
// notes the run: a summary that cannot be answered from the cache would
// only put a round trip before that read.
func (a *Adapter) latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
	if !a.latestFromCaches() {
		return a.runs.latest(ctx, name)
	}
	if a.latestMayBeCached(ctx, name) {
		if s, ok := a.newestSummary(ctx, name); ok {
			d, cached := a.runs.cached(ctx, restclient.RunRef{Name: name, RunID: s.DagRunId})
			if cached && sameState(s.Status, s.StartedAt, s.FinishedAt, s.AutoRetryCount, d) {
				a.hintLatest(ctx, name, d.DagRunId)
				return d, nil
			}
		}
	}
	d, err := a.runs.latest(ctx, name)
	if err == nil {
		a.hintLatest(ctx, name, d.DagRunId)
	}
	return d, err
}

// latestMayBeCached reports whether the DAG's latest run was last resolved
// to a run the run cache still holds, the one case where the newest-run
// summary can save the full read.
func (a *Adapter) latestMayBeCached(ctx context.Context, name string) bool {
	if a.hints == nil {
		return true
	}
	id, ok := a.hints.get(ctx, hintKey{credential: a.client.Fingerprint(ctx), name: name})
	return ok && a.runs.has(ctx, restclient.RunRef{Name: name, RunID: id})
}

// hintLatest remembers the run a DAG's latest run resolved to.
func (a *Adapter) hintLatest(ctx context.Context, name, runID string) {
	a.hints.add(hintKey{credential: a.client.Fingerprint(ctx), name: name}, runID)
}

// latestFromCaches reports whether latest may answer from the caches: the
// run cache and the list micro-cache are both on, on the current REST API.
func (a *Adapter) latestFromCaches() bool {
	return a.lists.enabled() && a.runs.enabled() && a.capsOrCurrent().APIBase == restclient.APIv1
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
