// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Stores are the local caches' storage, one store per kind, built once in
// a process that fronts several Dagu servers and handed to each server's
// DAGs, Lists, Runs, LatestHints and Roles with its scope: every bound
// (entries, bytes) is then the process's, however many servers it fronts,
// and the scope is part of every key, so two servers never see each
// other's entries. A nil *Stores leaves each cache its own store (one
// Dagu server).
type Stores struct {
	specs *cache.Cache[specKey, *model.DAGSpec]
	names *cache.Cache[string, []string]
	lists *cache.Cache[string, any]
	runs  *cache.Cache[runCacheKey, runCacheValue]
	hints *cache.Cache[dagKey, string]
	roles *cache.Cache[string, bool]
}

// StoresOptions configures Stores: the lifetimes and bounds every
// server's caches share.
type StoresOptions struct {
	// CacheTTL is DAGsOptions.CacheTTL (DAG specs and names).
	CacheTTL time.Duration
	// ListTTL is ListsOptions.TTL.
	ListTTL time.Duration
	// RunBytes and RunTTL are RunsOptions.Bytes and TTL, and RunTTL the
	// latest-run hints' lifetime.
	RunBytes int64
	RunTTL   time.Duration
	// RoleTTL is the role answers' lifetime (NewRoles).
	RoleTTL time.Duration
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Registerer, when set, receives the stores' metrics.
	Registerer prometheus.Registerer
}

// NewStores builds the process's stores.
func NewStores(o StoresOptions) (*Stores, error) {
	dags, err := newDAGCaches(DAGsOptions{CacheTTL: o.CacheTTL, Now: o.Now, Registerer: o.Registerer}.withDefaults())
	if err != nil {
		return nil, err
	}
	s := &Stores{specs: dags.spec, names: dags.names}
	if s.lists, err = newListStore(ListsOptions{TTL: o.ListTTL, Now: o.Now, Registerer: o.Registerer}); err != nil {
		return nil, err
	}
	runs, err := newRunStore(RunsOptions{Bytes: o.RunBytes, TTL: o.RunTTL, Now: o.Now, Registerer: o.Registerer})
	if err != nil {
		return nil, err
	}
	s.runs = runs.c
	if runs.enabled() {
		hints, err := NewLatestHints(o.RunTTL, o.Now)
		if err != nil {
			return nil, err
		}
		s.hints = hints.c
	}
	roles, err := NewRoles(o.RoleTTL, o.Now, o.Registerer)
	if err != nil {
		return nil, err
	}
	s.roles = roles.c
	return s, nil
}

// Hints is the latest-run hints of one server (nil when the run cache is
// off).
func (s *Stores) Hints(scope string) *LatestHints {
	if s.hints == nil {
		return nil
	}
	return &LatestHints{c: s.hints, scope: scope}
}

// Roles is the role answers of one server.
func (s *Stores) Roles(scope string) *Roles { return &Roles{c: s.roles, scope: scope} }

// Drop removes every entry of a server that is gone (its scope), so that
// its room is free at once rather than when its entries age out.
func (s *Stores) Drop(scope string) {
	if scope == "" {
		return
	}
	prefix := scoped(scope, "")
	ours := func(k string) bool { return strings.HasPrefix(k, prefix) }
	if s.specs != nil {
		s.specs.RemoveIf(func(k specKey) bool { return ours(k.fingerprint) })
		s.names.RemoveIf(ours)
	}
	if s.lists != nil {
		s.lists.RemoveIf(ours)
	}
	if s.runs != nil {
		s.runs.RemoveIf(func(k runCacheKey) bool { return ours(k.run.fingerprint) })
		s.hints.RemoveIf(func(k dagKey) bool { return ours(k.fingerprint) })
	}
	s.roles.RemoveIf(ours)
}

// scoped is a credential's fingerprint within a server's scope: the part
// of every key that names who reads what ("" scope: the fingerprint).
func scoped(scope, fingerprint string) string {
	if scope == "" {
		return fingerprint
	}
	return scope + "\x00" + fingerprint
}

// unscoped is the fingerprint scoped holds.
func unscoped(fingerprint string) string {
	if i := strings.IndexByte(fingerprint, 0); i >= 0 {
		return fingerprint[i+1:]
	}
	return fingerprint
}

// scopedFingerprint scopes what fingerprint returns.
func scopedFingerprint(scope string, fingerprint func(context.Context) string) func(context.Context) string {
	if scope == "" {
		return fingerprint
	}
	return func(ctx context.Context) string { return scoped(scope, fingerprint(ctx)) }
}
