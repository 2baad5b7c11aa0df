// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPHandler serves server over MCP Streamable HTTP statelessly with JSON
// responses, so any replica can answer any request. The front door does
// the DNS-rebinding check (honouring Options.AllowedHosts), so the SDK's
// own localhost check is off; put the handler behind New.
func MCPHandler(server *mcp.Server, log *slog.Logger) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{
			Stateless:                    true,
			JSONResponse:                 true,
			DisableLocalhostProtection:   true,
			PropagateRequestCancellation: true,
			Logger:                       log,
		})
}

// MetricsOnly serves metrics at GET /metrics and nothing else, without
// inbound tokens: the handler of a separate metrics listener meant for
// scrapers inside the cluster, which shows only counters (no secret
// reaches a metric).
func MetricsOnly(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	return mux
}
