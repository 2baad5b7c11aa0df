// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
)

// roleCacheEntries bounds the remembered roles (one per key).
const roleCacheEntries = 16

// adapterCaches are the adapter's own caches: eventLogs only remembers
// what the key's role allows. The caches of reads live in package
// readcache.
type adapterCaches struct {
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
	return c, nil
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
