// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
)

// roleCacheEntries bounds the remembered answers (one per key).
const roleCacheEntries = 16

// Roles remember, per credential, a yes or no learned from the key's role
// (whether it may read Dagu's event log), so that reads ask once per
// period. Concurrent lookups of one key share one load.
type Roles struct {
	c     *cache.Cache[string, bool]
	scope string // see Stores
}

// NewRoles keeps answers for ttl (the capability refresh period).
func NewRoles(ttl time.Duration, now func() time.Time, reg prometheus.Registerer) (*Roles, error) {
	c, err := cache.New[string, bool](cache.Options[bool]{
		Name: "dagu_event_log_access", MaxEntries: roleCacheEntries, TTL: ttl, Registerer: reg, Now: now,
	})
	if err != nil {
		return nil, fmt.Errorf("role cache: %w", err)
	}
	return &Roles{c: c}, nil
}

// Allowed returns the remembered answer for the credential, or load's; a
// failed load is "no" and is not remembered.
func (r *Roles) Allowed(ctx context.Context, fingerprint string, load func(context.Context) (bool, error)) bool {
	allowed, err := r.c.GetOrLoad(ctx, scoped(r.scope, fingerprint), load)
	return err == nil && allowed
}
