// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// MCP methods named in the access log.
const (
	methodToolCall     = "tools/call"
	methodResourceRead = "resources/read"
)

type methodKey struct{}

// withRequestInfo gives the read its request identity: the front door's
// request ID and caller headers when the call came over HTTP, a fresh ID
// otherwise (stdio), unless the context already carries one.
func (t *Tool) withRequestInfo(ctx context.Context, extra *mcp.RequestExtra, method string) context.Context {
	ctx = context.WithValue(ctx, methodKey{}, method)
	if t.passthrough && extra != nil && extra.Header != nil {
		if key, ok := bearerOf(extra.Header.Get("Authorization")); ok {
			ctx = reqctx.WithCredential(ctx, key)
		}
	}
	if _, ok := reqctx.From(ctx); ok {
		return ctx
	}
	info := reqctx.Info{Caller: "local"}
	if extra != nil && extra.Header != nil {
		info.RequestID = reqctx.SanitizeRequestID(extra.Header.Get(reqctx.HeaderRequestID))
		if caller := extra.Header.Get(reqctx.HeaderCaller); caller != "" {
			info.Caller = caller
		}
		info.Trust = extra.Header.Get(reqctx.HeaderTrust)
	}
	if info.RequestID == "" {
		info.RequestID = reqctx.NewRequestID()
	}
	return reqctx.With(ctx, info)
}

// methodOf is the MCP method a read answers.
func methodOf(ctx context.Context) string {
	if m, ok := ctx.Value(methodKey{}).(string); ok {
		return m
	}
	return methodToolCall
}

// bearerOf extracts the token of "Authorization: Bearer <token>".
func bearerOf(authorization string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}
