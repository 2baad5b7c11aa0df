// SPDX-License-Identifier: Apache-2.0

package reqctx

import "context"

// Output is a client's own choice of what a successful read's content
// holds, made by the URL it was given (/mcp?text-content=json&resource-links=omit).
// An empty field keeps the server's setting. It never changes
// structuredContent.
type Output struct {
	// TextContent is "contract" or "json", as --text-content.
	TextContent string
	// ResourceLinks is "contract" or "omit", as --resource-links.
	ResourceLinks string
}

type outputKey struct{}

// WithOutput returns ctx carrying the client's output choice.
func WithOutput(ctx context.Context, o Output) context.Context {
	return context.WithValue(ctx, outputKey{}, o)
}

// OutputOf returns the client's output choice; the zero Output (the
// server's settings) when the request made none.
func OutputOf(ctx context.Context) Output {
	o, _ := ctx.Value(outputKey{}).(Output)
	return o
}
