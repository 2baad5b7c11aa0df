// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

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
	return a.eventLogs.Allowed(ctx, fingerprint, func(ctx context.Context) (bool, error) {
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
