// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// List micro-cache bounds. The TTL is short (ListCacheTTL), so these only
// matter under a burst of distinct queries.
const (
	listCacheEntries = 256
	listCacheBytes   = 16 << 20
	// listLoadTimeout bounds one shared list call; the REST client's own
	// timeout is the bound that normally applies.
	listLoadTimeout = 5 * time.Minute
)

// listCache makes identical reads of lists (dags, runs, dag) share one REST
// call: concurrent ones always, and later ones for ListCacheTTL when the
// micro-cache is on. Keys hold the credential's fingerprint, the REST base,
// the route and the exact REST query, so a runs answer is never reused for
// another run window.
type listCache struct {
	store   *cache.Cache[string, any] // nil when the micro-cache is off
	flights *cache.Flights[string, any]
}

func newListCache(o AdapterOptions) (listCache, error) {
	var l listCache
	var err error
	l.flights, err = cache.NewFlights[string, any]("dagu_lists", listLoadTimeout)
	if err != nil {
		return l, fmt.Errorf("upstream adapter: %w", err)
	}
	if o.ListCacheTTL <= 0 {
		return l, nil
	}
	l.store, err = cache.New[string, any](cache.Options[any]{
		Name: "dagu_lists", MaxEntries: listCacheEntries, MaxBytes: listCacheBytes, TTL: o.ListCacheTTL,
		LoadTimeout: listLoadTimeout, SizeOf: cache.ApproxSize, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return l, fmt.Errorf("upstream adapter: %w", err)
	}
	return l, nil
}

// sharedRead answers one list read through the listCache (and, with the
// micro-cache on, the replicas' shared level behind it). route names the
// REST route and query its exact parameters. The answer is shared between
// callers and must not be changed.
func sharedRead[T any](ctx context.Context, a *Adapter, route string, query any, read func(context.Context) (*T, error)) (*T, error) {
	q, err := json.Marshal(query)
	if err != nil {
		return read(ctx)
	}
	fingerprint, base := a.client.Fingerprint(ctx), string(a.client.APIBase())
	key := fingerprint + "\x00" + base + "\x00" + route + "\x00" + string(q)
	var v any
	if a.lists.store != nil {
		shared := a.opts.Shared.Key(readcache.KindList, fingerprint, base, route, string(q))
		read := readcache.Through(a.opts.Shared, shared, a.opts.ListCacheTTL, read)
		v, err = a.lists.store.GetOrLoad(ctx, key, func(ctx context.Context) (any, error) { return read(ctx) })
	} else {
		v, err = a.lists.flights.Do(ctx, key, func(ctx context.Context) (any, error) { return read(ctx) })
	}
	if err != nil {
		return nil, callerGone(ctx, route, err)
	}
	out, _ := v.(*T)
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
		a.runs.noteLatest(ctx, &resp.LatestDAGRun)
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
		a.runs.noteSummaries(ctx, resp.DagRuns)
	}
	return resp, err
}
