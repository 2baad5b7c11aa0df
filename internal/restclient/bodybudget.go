// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// DefaultBodyBudget is how many bytes of Dagu's answers all calls together
// may hold while reading them. An answer is read whole (readBody: a pooled
// buffer, then growing chunks and one final copy), so the memory is a small
// multiple of it: at the default, 32 hostile answers read at once keep the process
// well under the Helm chart's 512 MiB limit (BENCHMARKS.md).
const DefaultBodyBudget = 32 << 20

// bodyBudget is the one byte budget every 2xx body in flight draws from.
// It is a membudget.Budget of its own, drawn with the owner of the
// request's reservation (its caller), so freed bytes go to callers fairly
// as memory does: the waiting caller holding the least first (ties:
// arrival order), and a caller over its fair part takes none while one
// under it waits. A body with a declared length reserves it whole before
// reading, a body without one reserves as its bytes arrive; either waits
// briefly (membudget.ShareWait, within its call's deadline) and is then
// refused (Error.Busy); a body larger than the whole budget is refused at
// once. What it holds is also drawn
// from the process's memory budget: from the reservation of the request
// the call is made for (its caller's share, membudget.DrawerFor), else
// from the budget itself. A declared length waits briefly for it
// (membudget.ShareWait), a body without one does not; a body that does
// not fit is refused as busy too.
type bodyBudget struct {
	bytes  *membudget.Budget
	total  int64
	memory *membudget.Budget
}

func newBodyBudget(total int64, memory *membudget.Budget) *bodyBudget {
	if total <= 0 {
		total = DefaultBodyBudget
	}
	return &bodyBudget{bytes: membudget.New("upstream body budget", total), total: total, memory: memory}
}

// reserveDeclared reserves a body's declared length, waiting within ctx.
func (b *bodyBudget) reserveDeclared(ctx context.Context, route string, n int64) error {
	if n > b.total {
		return b.spent(route)
	}
	if err := b.take(ctx, route, n); err != nil {
		return err
	}
	if membudget.DrawerFor(ctx, b.memory).Draw(ctx, n, true) != nil {
		b.bytes.GiveFor(membudget.OwnerOf(ctx), n)
		return b.memorySpent(route)
	}
	return nil
}

// reserveArriving reserves n more bytes of a body without a declared
// length, waiting for the body budget and the memory budget as briefly
// as a declared length (its caller's turn comes
// when memory is given back: membudget grants the caller holding the least
// first).
func (b *bodyBudget) reserveArriving(ctx context.Context, route string, n int64) error {
	if n > b.total {
		return b.spent(route)
	}
	if err := b.take(ctx, route, n); err != nil {
		return err
	}
	if membudget.DrawerFor(ctx, b.memory).Draw(ctx, n, true) != nil {
		b.bytes.GiveFor(membudget.OwnerOf(ctx), n)
		return b.memorySpent(route)
	}
	return nil
}

// release gives back n bytes reserved within ctx.
func (b *bodyBudget) release(ctx context.Context, n int64) {
	if n > 0 {
		b.bytes.GiveFor(membudget.OwnerOf(ctx), n)
		membudget.DrawerFor(ctx, b.memory).Return(n)
	}
}

// take takes n bytes of the body budget for the caller ctx carries,
// waiting its turn briefly.
func (b *bodyBudget) take(ctx context.Context, route string, n int64) error {
	if err := b.bytes.TakeFor(ctx, membudget.OwnerOf(ctx), n, true); err != nil {
		if ctx.Err() != nil {
			return transportError(ctx, route, ctx.Err())
		}
		return b.spent(route)
	}
	return nil
}

func (b *bodyBudget) spent(route string) error {
	return &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
		Excerpt: fmt.Sprintf("answers from Dagu being read already hold the gateway's budget of %d bytes (--upstream-body-budget)", b.total)}
}

func (b *bodyBudget) memorySpent(route string) error {
	return &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
		Excerpt: fmt.Sprintf("requests and answers in flight already hold the gateway's memory budget of %d bytes (--memory-budget)", b.memory.Limit())}
}
