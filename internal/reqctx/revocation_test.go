// SPDX-License-Identifier: Apache-2.0

package reqctx

import (
	"context"
	"errors"
	"testing"
)

// TestBindRevocationEndsADetachedHandler: a handler's context detached
// from the HTTP request's cancellation (as the SDK runs tools) still ends,
// with the revocation's cause, when the front door revokes the request;
// without a revocation nothing changes.
func TestBindRevocationEndsADetachedHandler(t *testing.T) {
	t.Parallel()
	cause := errors.New("revoked")
	tests := []struct {
		name      string
		carry     bool
		wantEnded bool
	}{
		{name: "revoked", carry: true, wantEnded: true},
		{name: "no revocation carried", carry: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			revoked, revoke := context.WithCancelCause(context.Background())
			ctx := context.Background()
			if tt.carry {
				ctx = WithRevocation(ctx, revoked)
			}
			bound, stop := BindRevocation(context.WithoutCancel(ctx))
			revoke(cause)
			if tt.wantEnded {
				<-bound.Done()
				if !errors.Is(context.Cause(bound), cause) {
					t.Fatalf("cause %v", context.Cause(bound))
				}
			} else if bound.Err() != nil {
				t.Fatalf("ended: %v", bound.Err())
			}
			stop()
		})
	}
}
