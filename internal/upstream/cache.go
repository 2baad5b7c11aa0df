// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// Cache bounds. Specs are small YAML files; the byte bound keeps a server
// with unusually large ones from growing the cache without limit.
const (
	specCacheEntries  = 1024
	specCacheBytes    = 32 << 20
	namesCacheEntries = 16
	roleCacheEntries  = 16
)

// specKey identifies a cached DAG spec: the credential that read it and
// the DAG file name. The credential is part of every key so that one key
// is never served what another key loaded.
type specKey struct {
	fingerprint string
	name        string
}

// adapterCaches are the adapter's caches. spec and names are nil when
// caching is disabled; eventLogs always exists (it only remembers what the
// key's role allows).
type adapterCaches struct {
	spec      *cache.Cache[specKey, *model.DAGSpec]
	names     *cache.Cache[string, []string]
	eventLogs *cache.Cache[string, bool]
}

func newAdapterCaches(o AdapterOptions) (adapterCaches, error) {
	var c adapterCaches
	var err error
	c.eventLogs, err = cache.New[string, bool](cache.Options[bool]{
		Name: "dagu_event_log_access", MaxEntries: roleCacheEntries, TTL: o.CapabilityRefresh,
		Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return c, fmt.Errorf("upstream adapter: %w", err)
	}
	if o.CacheTTL < 0 {
		return c, nil
	}
	c.spec, err = cache.New[specKey, *model.DAGSpec](cache.Options[*model.DAGSpec]{
		Name: "dagu_dag_spec", MaxEntries: specCacheEntries, MaxBytes: specCacheBytes, TTL: o.CacheTTL,
		SizeOf: specSize, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return c, fmt.Errorf("upstream adapter: %w", err)
	}
	c.names, err = cache.New[string, []string](cache.Options[[]string]{
		Name: "dagu_dag_names", MaxEntries: namesCacheEntries, TTL: o.CacheTTL, StaleFor: namesStaleFor(o.CacheTTL),
		Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return c, fmt.Errorf("upstream adapter: %w", err)
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

// cachedSpec returns the spec through the cache when caching is on. The
// caller gets its own copy of the struct: cached values are shared.
func (a *Adapter) cachedSpec(ctx context.Context, name string, load func(context.Context) (*model.DAGSpec, error)) (*model.DAGSpec, error) {
	if a.caches.spec == nil {
		return load(ctx)
	}
	key := specKey{fingerprint: a.client.Fingerprint(ctx), name: name}
	shared := sharedstate.Key{Kind: sharedKindSpec, Fingerprint: key.fingerprint, Parts: []string{name}}
	spec, err := a.caches.spec.GetOrLoad(ctx, key, throughShared(a, shared, a.opts.CacheTTL, load))
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

// cachedNames returns the DAG names through the cache when caching is on,
// as a slice the caller owns. An expired list within namesStaleFor answers
// at once while one background read, bounded by the cache's load timeout
// and ended by the adapter's shutdown (Start's ctx), replaces it.
func (a *Adapter) cachedNames(ctx context.Context, load func(context.Context) ([]string, error)) ([]string, error) {
	if a.caches.names == nil {
		return load(ctx)
	}
	fingerprint := a.client.Fingerprint(ctx)
	shared := sharedstate.Key{Kind: sharedKindNames, Fingerprint: fingerprint}
	names, err := a.caches.names.GetOrLoadStale(ctx, a.lifetime(), fingerprint, throughShared(a, shared, a.opts.CacheTTL, load))
	if err != nil {
		return nil, err
	}
	return slices.Clone(names), nil
}

// Roles that may read Dagu's event log.
const (
	roleManager = "manager"
	roleAdmin   = "admin"
)

// eventLogAccess reports whether the API key may read /event-logs: its
// role (from /auth/me, learned once per key and refresh period) is manager
// or admin, or no key is configured, which only works when Dagu's
// authentication is off and role checks do not apply. A failed lookup
// counts as "no" for the period: the attempt ID it serves is optional.
func (a *Adapter) eventLogAccess(ctx context.Context) bool {
	fingerprint := a.client.Fingerprint(ctx)
	allowed, err := a.caches.eventLogs.GetOrLoad(ctx, fingerprint, func(ctx context.Context) (bool, error) {
		if fingerprint == restclient.KeyFingerprint("") {
			return true, nil
		}
		user, err := a.client.CurrentUser(ctx)
		if err != nil {
			a.log.Debug("reading the API key's role failed; run attempt IDs stay hidden", "error", err)
			return false, nil
		}
		return user.Role == roleManager || user.Role == roleAdmin, nil
	})
	return err == nil && allowed
}
