// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

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
	return a.eventLogs.allowed(ctx, roleKey{credential: fingerprint}, func(ctx context.Context) (bool, error) {
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
}

// roleKey names a credential whose role was asked. Role answers stay
// local: each replica asks once per period.
type roleKey struct {
	credential string
}

// roleCache remembers, per credential, a yes or no learned from the key's
// role (whether it may read Dagu's event log), so that reads ask once per
// period. Concurrent lookups of one key share one load.
type roleCache struct {
	c      *cache.Cache[scoped[roleKey], bool]
	scope  string
	grants *grantBook // whether a credential's role answer may be reused
}

// allowed returns the remembered answer for the credential, or load's; a
// failed load is "no" and is not remembered.
func (r roleCache) allowed(ctx context.Context, k roleKey, load func(context.Context) (bool, error)) bool {
	if !r.grants.usable(ctx, k.credential) {
		allowed, err := load(ctx)
		return err == nil && allowed
	}
	allowed, err := r.c.GetOrLoad(ctx, scoped[roleKey]{scope: r.scope, key: k}, load)
	return err == nil && allowed
}
