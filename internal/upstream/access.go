// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// RoleAccess is what one read of a role-gated route with the configured
// key found: doctor reports it instead of assuming the key may read what
// the server offers.
type RoleAccess struct {
	// Route is the REST route read.
	Route string
	// Allowed reports that the key read it.
	Allowed bool
	// Status is Dagu's HTTP status when it refused (403: the key's role may
	// not read it; 503: the server has the feature switched off), else 0.
	Status int
	// Loss says which targets lose what when the route cannot be read.
	Loss string
}

// ProbeRoleAccess reads, with the configured key, each route that needs
// more than Dagu's viewer role and that the server offers: today the event
// log, the only source of run attempt IDs.
func (a *Adapter) ProbeRoleAccess(ctx context.Context, caps restclient.Capabilities) []RoleAccess {
	if !caps.EventLogs {
		return nil
	}
	one, kind := 1, eventKindDAGRun
	access := RoleAccess{Route: restclient.RouteEventLogs, Loss: "run and the resource dagu://runs/{name}/{dagRunId} omit attemptId"}
	_, err := a.client.ListEventLogs(ctx, gen.ListEventLogsParams{Kind: &kind, Limit: &one})
	switch e, ok := restclient.AsError(err); {
	case err == nil:
		access.Allowed = true
	case ok && (e.Status == http.StatusForbidden || e.Status == http.StatusServiceUnavailable):
		access.Status = e.Status
	}
	return []RoleAccess{access}
}
