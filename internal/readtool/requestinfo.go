// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// MCP methods named in the access log.
const (
	methodToolCall     = "tools/call"
	methodResourceRead = "resources/read"
)

type methodKey struct{}

// withRequestInfo gives the read its request identity: over HTTP the
// front door's one decision (request ID, caller, trust and, in
// passthrough, the credential), which the MCP handler hands on in the
// context; otherwise (stdio) the local user with a fresh ID.
func (t *Tool) withRequestInfo(ctx context.Context, method string) context.Context {
	ctx = context.WithValue(ctx, methodKey{}, method)
	if _, ok := reqctx.From(ctx); ok {
		return ctx
	}
	return reqctx.With(ctx, reqctx.Info{RequestID: reqctx.NewRequestID(), Caller: "local"})
}

// methodOf is the MCP method a read answers.
func methodOf(ctx context.Context) string {
	if m, ok := ctx.Value(methodKey{}).(string); ok {
		return m
	}
	return methodToolCall
}
