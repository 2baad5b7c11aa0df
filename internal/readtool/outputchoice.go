// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// output is what a successful read's content holds: the server's
// TextContent and ResourceLinks, or the client's own choice.
type output struct {
	textContent   string
	resourceLinks string
}

// outputFor is the content of this request's reads: the choice the front
// door read from the client's URL (reqctx.Output), each part the client
// left out taken from the server's settings.
func (t *Tool) outputFor(ctx context.Context) output {
	out := output{textContent: t.textContent, resourceLinks: t.resourceLinks}
	choice := reqctx.OutputOf(ctx)
	if choice.TextContent != "" {
		out.textContent = choice.TextContent
	}
	if choice.ResourceLinks != "" {
		out.resourceLinks = choice.ResourceLinks
	}
	return out
}
