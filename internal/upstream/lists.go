// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// sharedRead answers one list read through the list micro-cache
// (readcache.Lists, and with it on, the replicas' shared level behind it). route names the
// REST route and query its exact parameters. The answer is shared between
// callers and must not be changed.
func sharedRead[T any](ctx context.Context, a *Adapter, route string, query any, read func(context.Context) (*T, error)) (*T, error) {
	q, err := json.Marshal(query)
	if err != nil {
		return read(ctx)
	}
	lq := readcache.ListQuery{Fingerprint: a.client.Fingerprint(ctx), APIBase: string(a.client.APIBase()), Route: route, Query: string(q)}
	out, err := readcache.ReadList(ctx, a.lists, lq, read)
	if err != nil {
		return nil, callerGone(ctx, route, err)
	}
	return out, nil
}

// callerGone reports a caller that stopped waiting for a shared call the
// way the REST client reports a call whose context ended, so the agent
// reads the same failure with or without sharing.
func callerGone(ctx context.Context, route string, err error) error {
	cerr := ctx.Err()
	if cerr == nil || !errors.Is(err, cerr) {
		return err
	}
	canceled := errors.Is(cerr, context.Canceled)
	return &restclient.Error{Route: route, Canceled: canceled, Timeout: !canceled, Excerpt: err.Error(), Cause: err}
}

// fetchDAGList reads one page of the DAG list (GET /dags), shared.
func (a *Adapter) fetchDAGList(ctx context.Context, p gen.ListDAGsParams) (*gen.DAGListResponse, error) {
	return sharedRead(ctx, a, restclient.RouteDAGs, p, func(ctx context.Context) (*gen.DAGListResponse, error) {
		return a.client.ListDAGs(ctx, p)
	})
}

// fetchDAG reads one DAG with its latest run (GET /dags/{fileName}),
// shared.
func (a *Adapter) fetchDAG(ctx context.Context, name string) (*gen.DAGDetailsResponse, error) {
	resp, err := sharedRead(ctx, a, restclient.RouteDAG, name, func(ctx context.Context) (*gen.DAGDetailsResponse, error) {
		return a.client.GetDAG(ctx, name)
	})
	if err == nil {
		a.runs.NoteLatest(ctx, &resp.LatestDAGRun)
	}
	return resp, err
}

// fetchRunList reads one page of runs (GET /dag-runs), shared. The query
// holds the run window the caller settled, so a cached answer is never
// served for another window.
func (a *Adapter) fetchRunList(ctx context.Context, p gen.ListDAGRunsParams) (*gen.DAGRunsPageResponse, error) {
	resp, err := sharedRead(ctx, a, restclient.RouteRuns, p, func(ctx context.Context) (*gen.DAGRunsPageResponse, error) {
		return a.client.ListRuns(ctx, p)
	})
	if err == nil {
		a.runs.NoteSummaries(ctx, resp.DagRuns)
	}
	return resp, err
}
