// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Bounds of the local stores. Specs are small YAML files; the byte bound
// keeps a server with unusually large ones from growing the cache without
// limit. The list micro-cache's TTL is short, so its bounds only matter
// under a burst of distinct queries. The run cache's byte budget
// (RunCacheBytes) is meant to be the bound that binds.
const (
	specCacheEntries  = 1024
	specCacheBytes    = 32 << 20
	namesCacheEntries = 16
	listCacheEntries  = 256
	listCacheBytes    = 16 << 20
	runCacheEntries   = 1 << 16
	latestHintEntries = 4096 // one run ID per DAG and credential
	roleCacheEntries  = 16   // one answer per credential
)

// listLoadTimeout bounds one shared list call; the REST client's own
// timeout is the bound that normally applies.
const listLoadTimeout = 5 * time.Minute

// scoped is the local key of an entry: its key within one Dagu server's
// part of the stores. The scope is this process's (replicas number their
// instances each their own way), so it never reaches the shared level,
// whose own scope names the Dagu server for every replica.
type scoped[K comparable] struct {
	scope string
	key   K
}

// Stores are the local level of every cache of the adapter: DAG specs and
// names, the list micro-cache, run parts, latest-run hints and role
// answers, one store per kind. A process that fronts several Dagu servers
// builds them once and hands them to each server's adapter with its scope
// (AdapterOptions.Stores and Scope): every bound (entries, bytes) is then
// the process's, however many servers it fronts, and the scope is part of
// every key, so two servers never see each other's entries. An adapter
// given none builds its own. A store is nil when its cache is off.
type Stores struct {
	specs *cache.Cache[scoped[specKey], *model.DAGSpec]
	names *cache.Cache[scoped[namesKey], []string]
	lists *cache.Cache[scoped[listKey], any]
	runs  *cache.Cache[scoped[runCacheKey], runCacheValue]
	hints *cache.Cache[scoped[hintKey], string]
	roles *cache.Cache[scoped[roleKey], bool]
}

// StoresOptions configures Stores with the lifetimes and bounds every
// server's caches share; each field is the AdapterOptions field of the
// same name.
type StoresOptions struct {
	DAGCacheTTL   time.Duration
	ListCacheTTL  time.Duration
	RunCacheBytes int64
	RunCacheTTL   time.Duration // default DefaultRunCacheTTL
	// RoleTTL is how long a credential's role answer is kept (default
	// DefaultCapabilityRefresh).
	RoleTTL time.Duration
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Registerer, when set, receives the stores' metrics.
	Registerer prometheus.Registerer
}

// MaxBytes is the most the stores built with o hold, as their size
// functions measure them: the run cache's budget and the byte bounds of
// the spec and list caches that are on. The stores bounded by entries
// alone (DAG names, latest-run hints, role answers) hold little and are
// not in it.
func (o StoresOptions) MaxBytes() int64 {
	var n int64
	if o.DAGCacheTTL > 0 {
		n += specCacheBytes
	}
	if o.ListCacheTTL > 0 {
		n += listCacheBytes
	}
	return n + max(o.RunCacheBytes, 0)
}

// NewStores builds the stores.
func NewStores(o StoresOptions) (*Stores, error) {
	if o.RunCacheTTL <= 0 {
		o.RunCacheTTL = DefaultRunCacheTTL
	}
	if o.RoleTTL <= 0 {
		o.RoleTTL = DefaultCapabilityRefresh
	}
	s := &Stores{}
	var err error
	if o.DAGCacheTTL > 0 {
		if s.specs, err = cache.New[scoped[specKey], *model.DAGSpec](cache.Options[*model.DAGSpec]{
			Name: "dagu_dag_spec", MaxEntries: specCacheEntries, MaxBytes: specCacheBytes, TTL: o.DAGCacheTTL,
			SizeOf: specSize, Registerer: o.Registerer, Now: o.Now,
		}); err != nil {
			return nil, err
		}
		if s.names, err = cache.New[scoped[namesKey], []string](cache.Options[[]string]{
			Name: "dagu_dag_names", MaxEntries: namesCacheEntries, TTL: o.DAGCacheTTL, StaleFor: namesStaleFor(o.DAGCacheTTL),
			Registerer: o.Registerer, Now: o.Now,
		}); err != nil {
			return nil, err
		}
	}
	if o.ListCacheTTL > 0 {
		if s.lists, err = cache.New[scoped[listKey], any](cache.Options[any]{
			Name: "dagu_lists", MaxEntries: listCacheEntries, MaxBytes: listCacheBytes, TTL: o.ListCacheTTL,
			LoadTimeout: listLoadTimeout, SizeOf: cache.ApproxSize, Registerer: o.Registerer, Now: o.Now,
		}); err != nil {
			return nil, err
		}
	}
	if o.RunCacheBytes > 0 {
		if s.runs, err = cache.New[scoped[runCacheKey], runCacheValue](cache.Options[runCacheValue]{
			Name: "dagu_finished_runs", MaxEntries: runCacheEntries, MaxBytes: o.RunCacheBytes, TTL: o.RunCacheTTL,
			SizeOf: runCacheValue.bytes, Registerer: o.Registerer, Now: o.Now,
		}); err != nil {
			return nil, err
		}
		if s.hints, err = cache.New[scoped[hintKey], string](cache.Options[string]{
			MaxEntries: latestHintEntries, TTL: o.RunCacheTTL, Now: o.Now,
		}); err != nil {
			return nil, err
		}
	}
	s.roles, err = cache.New[scoped[roleKey], bool](cache.Options[bool]{
		Name: "dagu_event_log_access", MaxEntries: roleCacheEntries, TTL: o.RoleTTL, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Drop removes every entry of a server that is gone (its scope), so that
// its room is free at once rather than when its entries age out.
func (s *Stores) Drop(scope string) {
	if scope == "" {
		return
	}
	removeScope(s.specs, scope)
	removeScope(s.names, scope)
	removeScope(s.lists, scope)
	removeScope(s.runs, scope)
	removeScope(s.hints, scope)
	removeScope(s.roles, scope)
}

// DropCredential removes every entry one credential read from a server
// (its scope): what grantBook does when Dagu narrows what the credential
// may see. nil Stores drop nothing.
func (s *Stores) DropCredential(scope, credential string) {
	if s == nil {
		return
	}
	removeCredential(s.specs, scope, func(k specKey) string { return k.credential }, credential)
	removeCredential(s.names, scope, func(k namesKey) string { return k.credential }, credential)
	removeCredential(s.lists, scope, func(k listKey) string { return k.credential }, credential)
	removeCredential(s.runs, scope, func(k runCacheKey) string { return k.run.credential }, credential)
	removeCredential(s.hints, scope, func(k hintKey) string { return k.credential }, credential)
	removeCredential(s.roles, scope, func(k roleKey) string { return k.credential }, credential)
}

// removeCredential drops a credential's entries of one scope from a store
// (nil: off).
func removeCredential[K comparable, V any](c *cache.Cache[scoped[K], V], scope string, of func(K) string, credential string) {
	if c != nil {
		c.RemoveIf(func(k scoped[K]) bool { return k.scope == scope && of(k.key) == credential })
	}
}

// removeScope drops the entries of one scope from a store (nil: off).
func removeScope[K comparable, V any](c *cache.Cache[scoped[K], V], scope string) {
	if c != nil {
		c.RemoveIf(func(k scoped[K]) bool { return k.scope == scope })
	}
}
