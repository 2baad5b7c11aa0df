// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Health reads the server's health and version (GET /health).
func (c *Client) Health(ctx context.Context) (*gen.HealthResponse, error) {
	res, err := c.api().GetHealthWithResponse(ctx)
	return decoded[gen.HealthResponse](RouteHealth, res, err)
}

// CurrentUser reads the identity behind the API key (GET /auth/me).
func (c *Client) CurrentUser(ctx context.Context) (*gen.User, error) {
	res, err := c.api().GetCurrentUserWithResponse(ctx)
	body, err := decoded[gen.UserResponse](RouteCurrentUser, res, err)
	if err != nil {
		return nil, err
	}
	return &body.User, nil
}

// ListEventLogs reads central event log entries (GET /event-logs; manager
// or admin keys only, others get 403).
func (c *Client) ListEventLogs(ctx context.Context, p gen.ListEventLogsParams) (*gen.EventLogsResponse, error) {
	res, err := c.api().ListEventLogsWithResponse(ctx, &p)
	return decoded[gen.EventLogsResponse](RouteEventLogs, res, err)
}
