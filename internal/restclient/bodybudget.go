// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// DefaultBodyBudget is how many bytes of Dagu's answers all calls together
// may hold while reading them. An answer is read whole (readBody: a pooled
// buffer, then growing chunks and one final copy), so the memory is a small
// multiple of it: at the default, 32 hostile answers read at once keep the process
// well under the Helm chart's 512 MiB limit (BENCHMARKS.md).
const DefaultBodyBudget = 32 << 20

// bodyBudget is the one byte budget every 2xx body in flight draws from.
// A body with a declared length reserves it whole before reading (waiting
// within its call's deadline); a body without one reserves as its bytes
// arrive and is refused at once (Error.Busy) when the budget is spent, so
// bodies never wait for one another half-read. What it holds is also drawn
// from the process's memory budget: from the reservation of the request
// the call is made for (its caller's share, membudget.DrawerFor), else
// from the budget itself. A declared length waits briefly for it
// (membudget.ShareWait), a body without one does not; a body that does
// not fit is refused as busy too.
type bodyBudget struct {
	sem    *semaphore.Weighted
	total  int64
	memory *membudget.Budget
}

func newBodyBudget(total int64, memory *membudget.Budget) *bodyBudget {
	if total <= 0 {
		total = DefaultBodyBudget
	}
	return &bodyBudget{sem: semaphore.NewWeighted(total), total: total, memory: memory}
}

// reserveDeclared reserves a body's declared length, waiting within ctx.
func (b *bodyBudget) reserveDeclared(ctx context.Context, route string, n int64) error {
	if n > b.total {
		return b.spent(route)
	}
	if err := b.sem.Acquire(ctx, n); err != nil {
		return transportError(ctx, route, err)
	}
	if membudget.DrawerFor(ctx, b.memory).Draw(ctx, n, true) != nil {
		b.sem.Release(n)
		return b.memorySpent(route)
	}
	return nil
}

// reserveArriving reserves n more bytes of a body without a declared
// length: the body budget at once or not at all, the memory budget
// waiting for it as briefly as a declared length (its caller's turn comes
// when memory is given back: membudget grants the caller holding the least
// first).
func (b *bodyBudget) reserveArriving(ctx context.Context, route string, n int64) error {
	if !b.sem.TryAcquire(n) {
		return b.spent(route)
	}
	if membudget.DrawerFor(ctx, b.memory).Draw(ctx, n, true) != nil {
		b.sem.Release(n)
		return b.memorySpent(route)
	}
	return nil
}

// release gives back n bytes reserved within ctx.
func (b *bodyBudget) release(ctx context.Context, n int64) {
	if n > 0 {
		b.sem.Release(n)
		membudget.DrawerFor(ctx, b.memory).Return(n)
	}
}

func (b *bodyBudget) spent(route string) error {
	return &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
		Excerpt: fmt.Sprintf("answers from Dagu being read already hold the gateway's budget of %d bytes (--upstream-body-budget)", b.total)}
}

func (b *bodyBudget) memorySpent(route string) error {
	return &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
		Excerpt: fmt.Sprintf("requests and answers in flight already hold the gateway's memory budget of %d bytes (--memory-budget)", b.memory.Limit())}
}
