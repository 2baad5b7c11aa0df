// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// specKey names a cached DAG spec: the credential that read it and the
// DAG file name.
type specKey struct {
	credential string
	name       string
}

func (k specKey) shared() sharedstate.Key {
	return sharedstate.Key{Kind: kindSpec, Fingerprint: k.credential, Parts: []string{k.name}}
}

// namesKey names a cached DAG name list: the credential that read it.
type namesKey struct {
	credential string
}

func (k namesKey) shared() sharedstate.Key {
	return sharedstate.Key{Kind: kindNames, Fingerprint: k.credential}
}

// dagCaches keep the DAG reads that are a port's whole answer, DAG specs
// and the DAG name list: the local store, then the shared level, then the
// port's own read. Their stores are nil when the cache is off
// (DAGCacheTTL).
type dagCaches struct {
	specs  *cache.Cache[scoped[specKey], *model.DAGSpec]
	names  *cache.Cache[scoped[namesKey], []string]
	shared *sharedLevel
	ttl    time.Duration
	scope  string
	// lifetime is the context background refreshes run under.
	lifetime func() context.Context
	// grants says whether a credential's cached answers may be served.
	grants *grantBook
}

// spec answers from the spec cache, the shared level, then load. The
// caller gets its own copy of the struct: cached values are shared.
func (d *dagCaches) spec(ctx context.Context, k specKey, load func(context.Context) (*model.DAGSpec, error)) (*model.DAGSpec, error) {
	if d.specs == nil || !d.grants.usable(ctx, k.credential) {
		return load(ctx)
	}
	spec, err := d.specs.GetOrLoad(ctx, scoped[specKey]{scope: d.scope, key: k}, through(d.shared, k, d.ttl, load))
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

// namesOf answers from the name cache, the shared level, then load, as a
// slice the caller owns. An expired list within namesStaleFor answers at
// once while one background read, bounded by the cache's load timeout and
// ended with the adapter's lifetime, replaces it.
func (d *dagCaches) namesOf(ctx context.Context, k namesKey, load func(context.Context) ([]string, error)) ([]string, error) {
	if d.names == nil || !d.grants.usable(ctx, k.credential) {
		return load(ctx)
	}
	names, err := d.names.GetOrLoadStale(ctx, d.lifetime(), scoped[namesKey]{scope: d.scope, key: k}, through(d.shared, k, d.ttl, load))
	if err != nil {
		return nil, err
	}
	return slices.Clone(names), nil
}

// waitRefreshes waits for the background refreshes the caches started.
func (d *dagCaches) waitRefreshes() {
	if d.names != nil {
		d.names.WaitRefreshes()
	}
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

// cachedSpec is GetDAGSpec: the spec cache in front of the port's read.
func (a *Adapter) cachedSpec(ctx context.Context, name string) (*model.DAGSpec, error) {
	k := specKey{credential: a.client.Fingerprint(ctx), name: name}
	return a.dags.spec(ctx, k, func(ctx context.Context) (*model.DAGSpec, error) { return port1(ctx, a, a.getDAGSpec, name) })
}

// cachedNames is DAGNames: the name cache in front of the port's read.
func (a *Adapter) cachedNames(ctx context.Context) ([]string, error) {
	k := namesKey{credential: a.client.Fingerprint(ctx)}
	return a.dags.namesOf(ctx, k, func(ctx context.Context) ([]string, error) { return port(ctx, a, a.dagNames) })
}
