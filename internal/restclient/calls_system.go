// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Health reads the server's health and version (GET /health).
func (c *Client) Health(ctx context.Context) (*gen.HealthResponse, error) {
	res, err := c.api().GetHealth(ctx)
	return decodeJSON[gen.HealthResponse](RouteHealth, res, err)
}

// CurrentUser reads the identity behind the API key (GET /auth/me).
func (c *Client) CurrentUser(ctx context.Context) (*gen.User, error) {
	res, err := c.api().GetCurrentUser(ctx)
	body, err := decodeJSON[gen.UserResponse](RouteCurrentUser, res, err)
	if err != nil {
		return nil, err
	}
	return &body.User, nil
}

// ListEventLogs reads central event log entries (GET /event-logs; manager
// or admin keys only, others get 403).
func (c *Client) ListEventLogs(ctx context.Context, p gen.ListEventLogsParams) (*gen.EventLogsResponse, error) {
	res, err := c.api().ListEventLogs(ctx, &p)
	return decodeJSON[gen.EventLogsResponse](RouteEventLogs, res, err)
}
