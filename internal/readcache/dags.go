// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Cache bounds. Specs are small YAML files; the byte bound keeps a server
// with unusually large ones from growing the cache without limit.
const (
	specCacheEntries  = 1024
	specCacheBytes    = 32 << 20
	namesCacheEntries = 16
)

// specKey identifies a cached DAG spec: the credential that read it and
// the DAG file name.
type specKey struct {
	fingerprint string
	name        string
}

// dagCaches hold the DAG reads that are a port's whole answer; both are
// nil when caching is disabled (a negative CacheTTL).
type dagCaches struct {
	spec  *cache.Cache[specKey, *model.DAGSpec]
	names *cache.Cache[string, []string]
}

func newDAGCaches(o DAGsOptions) (dagCaches, error) {
	var c dagCaches
	if o.Stores != nil {
		return dagCaches{spec: o.Stores.specs, names: o.Stores.names}, nil
	}
	if o.CacheTTL < 0 {
		return c, nil
	}
	var err error
	c.spec, err = cache.New[specKey, *model.DAGSpec](cache.Options[*model.DAGSpec]{
		Name: "dagu_dag_spec", MaxEntries: specCacheEntries, MaxBytes: specCacheBytes, TTL: o.CacheTTL,
		SizeOf: specSize, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return c, fmt.Errorf("read cache: %w", err)
	}
	c.names, err = cache.New[string, []string](cache.Options[[]string]{
		Name: "dagu_dag_names", MaxEntries: namesCacheEntries, TTL: o.CacheTTL, StaleFor: namesStaleFor(o.CacheTTL),
		Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return c, fmt.Errorf("read cache: %w", err)
	}
	return c, nil
}

func specSize(s *model.DAGSpec) int64 {
	if s == nil {
		return 0
	}
	n := len(s.Name) + len(s.Spec)
	for _, e := range s.Errors {
		n += len(e)
	}
	return int64(n)
}

// DAGs caches the DAG reads that are a port's whole answer, DAG specs and
// the DAG name list, for the layer around the ports (package portcache):
// the local cache, then the shared level, then the load the caller hands
// in. It is safe for concurrent use.
type DAGs struct {
	opts   DAGsOptions
	caches dagCaches
}

// NewDAGs builds the DAG caches of one Dagu server.
func NewDAGs(o DAGsOptions) (*DAGs, error) {
	if o.Fingerprint == nil {
		return nil, errors.New("read cache: Fingerprint is required")
	}
	o = o.withDefaults()
	o.Fingerprint = scopedFingerprint(o.Scope, o.Fingerprint)
	caches, err := newDAGCaches(o)
	if err != nil {
		return nil, err
	}
	return &DAGs{opts: o, caches: caches}, nil
}

// WaitRefreshes waits for the background refreshes the caches started.
func (d *DAGs) WaitRefreshes() {
	if d.caches.names != nil {
		d.caches.names.WaitRefreshes()
	}
}

// Spec answers from the spec cache, the shared level, then load. The
// caller gets its own copy of the struct: cached values are shared.
func (d *DAGs) Spec(ctx context.Context, name string, load func(context.Context, string) (*model.DAGSpec, error)) (*model.DAGSpec, error) {
	if d.caches.spec == nil {
		return load(ctx, name)
	}
	key := specKey{fingerprint: d.opts.Fingerprint(ctx), name: name}
	shared := d.opts.Shared.Key(KindSpec, key.fingerprint, name)
	loadOne := func(ctx context.Context) (*model.DAGSpec, error) { return load(ctx, name) }
	spec, err := d.caches.spec.GetOrLoad(ctx, key, Through(d.opts.Shared, shared, d.opts.CacheTTL, loadOne))
	if err != nil {
		return nil, err
	}
	out := *spec
	out.Errors = slices.Clone(spec.Errors)
	return &out, nil
}

// namesStaleFor is how long after expiring the DAG name list may still
// answer while it is read again in the background: one more TTL, so a
// list is at most twice the TTL old. The names only feed did-you-mean
// hints, which a list that stale serves well, while reading all of them
// again on a large server takes about a second.
func namesStaleFor(ttl time.Duration) time.Duration { return ttl }

// Names answers from the name cache, the shared level, then load, as a
// slice the caller owns. An expired list within namesStaleFor answers at
// once while one background read, bounded by the cache's load timeout and
// ended with DAGsOptions.Lifetime, replaces it.
func (d *DAGs) Names(ctx context.Context, load func(context.Context) ([]string, error)) ([]string, error) {
	if d.caches.names == nil {
		return load(ctx)
	}
	fingerprint := d.opts.Fingerprint(ctx)
	shared := d.opts.Shared.Key(KindNames, fingerprint)
	names, err := d.caches.names.GetOrLoadStale(ctx, d.opts.Lifetime(), fingerprint,
		Through(d.opts.Shared, shared, d.opts.CacheTTL, load))
	if err != nil {
		return nil, err
	}
	return slices.Clone(names), nil
}
