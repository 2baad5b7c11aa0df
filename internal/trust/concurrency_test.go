// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestConcurrencyPerCaller: a caller gets at most max reads in flight,
// whatever credentials it uses (the front door names it by identity);
// another caller is not affected; a release frees a place once, however
// often it is called; an idle caller leaves no counter behind.
func TestConcurrencyPerCaller(t *testing.T) {
	t.Parallel()
	c := NewConcurrency(2)
	as := func(caller string) context.Context {
		return reqctx.With(context.Background(), reqctx.Info{Caller: caller, Trust: reqctx.TrustVerified})
	}
	alice := as("dagu:user-alice")
	r1, ok1 := c.Acquire(alice)
	r2, ok2 := c.Acquire(alice)
	if !ok1 || !ok2 {
		t.Fatal("alice's first two reads were refused")
	}
	if _, ok := c.Acquire(alice); ok {
		t.Error("alice's third read in flight was admitted")
	}
	rb, ok := c.Acquire(as("dagu:user-bob"))
	if !ok {
		t.Error("bob was refused while alice was at her limit")
	}
	r1()
	r1()
	if _, ok := c.Acquire(alice); !ok {
		t.Error("alice was refused after a release")
	}
	if _, ok := c.Acquire(alice); ok {
		t.Error("a second call of the same release freed a second place")
	}
	r2()
	rb()
	if n := len(c.inFlight); n != 1 {
		t.Errorf("%d callers kept, want only alice's read still in flight", n)
	}
	var none *Concurrency
	if _, ok := none.Acquire(alice); !ok {
		t.Error("a nil Concurrency refused a read")
	}
	if NewConcurrency(0) != nil {
		t.Error("NewConcurrency(0) is a limit")
	}
}
