// SPDX-License-Identifier: Apache-2.0

package reqctx

import "context"

type revocationKey struct{}

// WithRevocation returns ctx carrying revoked, a context the front door
// ends (with its cause) when the request's credential is revoked while
// the request is in flight. It rides in the values, which reach the MCP
// server's handlers even where the SDK detaches them from the HTTP
// request's cancellation.
func WithRevocation(ctx, revoked context.Context) context.Context {
	return context.WithValue(ctx, revocationKey{}, revoked)
}

// BindRevocation returns ctx ended too, with the revocation's cause, when
// ctx carries a revocation (WithRevocation) that ends; stop releases it.
// Without one it returns ctx unchanged.
func BindRevocation(ctx context.Context) (_ context.Context, stop func()) {
	revoked, ok := ctx.Value(revocationKey{}).(context.Context)
	if !ok {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	unlink := context.AfterFunc(revoked, func() { cancel(context.Cause(revoked)) })
	return ctx, func() {
		unlink()
		cancel(nil)
	}
}
