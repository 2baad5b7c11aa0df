// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
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

func newDAGCaches(o Options) (dagCaches, error) {
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

// GetDAGSpec answers from the spec cache, the shared level, then the inner
// port. The caller gets its own copy of the struct: cached values are
// shared.
func (l *Layer) GetDAGSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	if l.dags.spec == nil {
		return l.Ports.GetDAGSpec(ctx, name)
	}
	key := specKey{fingerprint: l.opts.Fingerprint(ctx), name: name}
	shared := l.opts.Shared.Key(KindSpec, key.fingerprint, name)
	load := func(ctx context.Context) (*model.DAGSpec, error) { return l.Ports.GetDAGSpec(ctx, name) }
	spec, err := l.dags.spec.GetOrLoad(ctx, key, Through(l.opts.Shared, shared, l.opts.CacheTTL, load))
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

// DAGNames answers from the name cache, the shared level, then the inner
// port, as a slice the caller owns. An expired list within namesStaleFor
// answers at once while one background read, bounded by the cache's load
// timeout and ended with Options.Lifetime, replaces it.
func (l *Layer) DAGNames(ctx context.Context) ([]string, error) {
	if l.dags.names == nil {
		return l.Ports.DAGNames(ctx)
	}
	fingerprint := l.opts.Fingerprint(ctx)
	shared := l.opts.Shared.Key(KindNames, fingerprint)
	names, err := l.dags.names.GetOrLoadStale(ctx, l.opts.Lifetime(), fingerprint,
		Through(l.opts.Shared, shared, l.opts.CacheTTL, l.Ports.DAGNames))
	if err != nil {
		return nil, err
	}
	return slices.Clone(names), nil
}
