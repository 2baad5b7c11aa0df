// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// protocol20250618 is the first MCP revision with resource_link content
// (and structuredContent). 2025-03-26 and 2024-11-05 define neither.
const protocol20250618 = "2025-06-18"

// withRevisionOutput returns ctx with the content of its reads fitted to
// the MCP revision the request speaks (its protocol version, "" for a
// request without an MCP-Protocol-Version header, which speaks
// 2025-03-26). A revision before 2025-06-18 has no resource_link content
// type: a client built for it rejects the whole result (the TypeScript SDK
// 1.12 fails callTool with a validation error), so the link is left out,
// whatever the URL or the server chose. structuredContent stays: such a
// client passes over a result member it does not know.
func withRevisionOutput(ctx context.Context, version string) context.Context {
	if version >= protocol20250618 {
		return ctx
	}
	out := reqctx.OutputOf(ctx)
	out.ResourceLinks = ResourceLinksOmit
	return reqctx.WithOutput(ctx, out)
}
