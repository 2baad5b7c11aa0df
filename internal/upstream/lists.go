// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// listKey names one REST list read as one credential sends it: the REST
// base, the route and the exact REST query (encoded), so a runs answer is
// never reused for another run window.
type listKey struct {
	credential string
	apiBase    string
	route      string
	query      string
}

func (k listKey) shared() sharedstate.Key {
	return sharedstate.Key{Kind: kindList, Fingerprint: k.credential, Parts: []string{k.apiBase, k.route, k.query}}
}

// listCache makes identical REST reads of lists (dags, runs, dag, a DAG's
// newest run) share one call: concurrent ones always, and later ones for
// ListCacheTTL when the micro-cache is on, through the shared level too.
//
// It keys REST queries, not port answers: several reads send the same
// list query (a DAG read and latest's newest-run summary, the pages of a
// 1.x label filter), and a port answer's key would not show which.
type listCache struct {
	store   *cache.Cache[scoped[listKey], any] // nil when the micro-cache is off
	flights *cache.Flights[listKey, any]
	shared  *sharedLevel
	ttl     time.Duration
	scope   string
	grants  *grantBook // whether a credential's answers may be reused
}

// enabled reports whether answers are reused after they arrived.
func (l *listCache) enabled() bool { return l.store != nil }

// readList answers one list read from the micro-cache, the shared level,
// then read. The answer is shared between callers and must not be
// changed.
func readList[T any](ctx context.Context, l *listCache, k listKey, read func(context.Context) (*T, error)) (*T, error) {
	var v any
	var err error
	if l.store != nil && l.grants.usable(ctx, k.credential) {
		typed := through(l.shared, k, l.ttl, read) // decodes a shared answer as a T
		v, err = l.store.GetOrLoad(ctx, scoped[listKey]{scope: l.scope, key: k}, func(ctx context.Context) (any, error) { return typed(ctx) })
	} else {
		v, err = l.flights.Do(ctx, k, func(ctx context.Context) (any, error) { return read(ctx) })
	}
	if err != nil {
		return nil, err
	}
	out, _ := v.(*T)
	return out, nil
}

// sharedRead answers one list read through the list micro-cache
// (listCache, and with it on, the replicas' shared level behind it).
// route names the REST route and query its exact parameters. The answer
// is shared between callers and must not be changed.
func sharedRead[T any](ctx context.Context, a *Adapter, route string, query any, read func(context.Context) (*T, error)) (*T, error) {
	q, err := json.Marshal(query)
	if err != nil {
		return read(ctx)
	}
	k := listKey{credential: a.client.Fingerprint(ctx), apiBase: string(a.client.APIBase()), route: route, query: string(q)}
	out, err := readList(ctx, a.lists, k, read)
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
