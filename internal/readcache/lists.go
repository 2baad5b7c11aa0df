// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
)

// List micro-cache bounds. The TTL is short (ListsOptions.TTL), so these
// only matter under a burst of distinct queries.
const (
	listCacheEntries = 256
	listCacheBytes   = 16 << 20
	// listLoadTimeout bounds one shared list call; the REST client's own
	// timeout is the bound that normally applies.
	listLoadTimeout = 5 * time.Minute
)

// Lists makes identical REST reads of lists (dags, runs, dag, a DAG's
// newest run) share one call: concurrent ones always, and later ones for
// the TTL when the micro-cache is on, through the shared level too. Keys
// hold the credential's fingerprint, the REST base, the route and the exact
// REST query, so a runs answer is never reused for another run window.
//
// It keys REST queries, not port answers: several reads send the same
// list query (a DAG read and latest's newest-run summary, the pages of a
// 1.x label filter), and a port answer's key would not show which.
type Lists struct {
	store   *cache.Cache[string, any] // nil when the micro-cache is off
	flights *cache.Flights[string, any]
	shared  *Shared
	ttl     time.Duration
	scope   string
}

// ListsOptions configures Lists.
type ListsOptions struct {
	// TTL is the longest an answer is reused; zero or a negative value
	// keeps only the sharing of concurrent reads.
	TTL time.Duration
	// Shared, when set, is the second level behind the micro-cache.
	Shared *Shared
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Registerer, when set, receives the micro-cache's metrics.
	Registerer prometheus.Registerer
	// Stores, when set, are the process's stores (the micro-cache's own
	// when nil), whose keys Scope, one Dagu server's, makes these lists'.
	Stores *Stores
	Scope  string
}

// NewLists builds the list micro-cache.
func NewLists(o ListsOptions) (*Lists, error) {
	l := &Lists{shared: o.Shared, ttl: o.TTL, scope: o.Scope}
	var err error
	l.flights, err = cache.NewFlights[string, any]("dagu_lists", listLoadTimeout)
	if err != nil {
		return nil, fmt.Errorf("list cache: %w", err)
	}
	if o.Stores != nil {
		l.store = o.Stores.lists
		return l, nil
	}
	l.store, err = newListStore(o)
	return l, err
}

// newListStore builds the micro-cache's store (nil when it is off).
func newListStore(o ListsOptions) (*cache.Cache[string, any], error) {
	if o.TTL <= 0 {
		return nil, nil
	}
	c, err := cache.New[string, any](cache.Options[any]{
		Name: "dagu_lists", MaxEntries: listCacheEntries, MaxBytes: listCacheBytes, TTL: o.TTL,
		LoadTimeout: listLoadTimeout, SizeOf: cache.ApproxSize, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return nil, fmt.Errorf("list cache: %w", err)
	}
	return c, nil
}

// Enabled reports whether answers are reused after they arrived.
func (l *Lists) Enabled() bool { return l.store != nil }

// ListQuery names one REST list read as one credential sends it.
type ListQuery struct {
	Fingerprint, APIBase, Route string
	// Query is the exact REST query, encoded (JSON).
	Query string
}

// ReadList answers one list read from the micro-cache, the shared level,
// then read. The answer is shared between callers and must not be
// changed.
func ReadList[T any](ctx context.Context, l *Lists, q ListQuery, read func(context.Context) (*T, error)) (*T, error) {
	q.Fingerprint = scoped(l.scope, q.Fingerprint)
	key := q.Fingerprint + "\x00" + q.APIBase + "\x00" + q.Route + "\x00" + q.Query
	var v any
	var err error
	if l.store != nil {
		shared := l.shared.Key(KindList, q.Fingerprint, q.APIBase, q.Route, q.Query)
		read := Through(l.shared, shared, l.ttl, read)
		v, err = l.store.GetOrLoad(ctx, key, func(ctx context.Context) (any, error) { return read(ctx) })
	} else {
		v, err = l.flights.Do(ctx, key, func(ctx context.Context) (any, error) { return read(ctx) })
	}
	if err != nil {
		return nil, err
	}
	out, _ := v.(*T)
	return out, nil
}

// Waiting reports how many callers wait for a shared list call while the
// micro-cache is off (tests use it to line callers up).
func (l *Lists) Waiting() int { return l.flights.Waiting() }
