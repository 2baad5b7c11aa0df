// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// DefaultConcurrency is how many requests to Dagu may be in flight at once.
const DefaultConcurrency = 32

// busyRetryAfter is the wait a refused request is told to take.
const busyRetryAfter = 500 * time.Millisecond

// SharedBudget is a concurrency budget shared by every replica of the
// gateway (the shared state's lease-based semaphore).
type SharedBudget interface {
	// Acquire takes a slot, waiting while all are taken at most until ctx
	// ends; busy is true when the budget stayed exhausted. An error means
	// the shared budget could not decide: the request goes on under the
	// replica's own cap alone.
	Acquire(ctx context.Context) (release func(), busy bool, err error)
}

// concurrencyCap protects Dagu from bursts: at most n requests in flight,
// at most n more waiting (each no longer than its own deadline); beyond
// that a request is refused at once (Error.Busy), never queued. With a
// shared budget, a request holding one of this replica's slots also takes
// one of the cluster's before it is sent.
type concurrencyCap struct {
	sem     *semaphore.Weighted
	waiting atomic.Int64
	limit   int64
	shared  SharedBudget
}

func newConcurrencyCap(n int, shared SharedBudget) *concurrencyCap {
	if n <= 0 {
		n = DefaultConcurrency
	}
	return &concurrencyCap{sem: semaphore.NewWeighted(int64(n)), limit: int64(n), shared: shared}
}

// acquire takes a slot of this replica's cap, then of the shared budget.
func (c *concurrencyCap) acquire(ctx context.Context, route string) (release func(), err error) {
	local, err := c.acquireLocal(ctx, route)
	if err != nil || c.shared == nil {
		return local, err
	}
	cluster, busy, err := c.shared.Acquire(ctx)
	switch {
	case busy:
		local()
		return nil, &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
			Excerpt: fmt.Sprintf("the %d requests to Dagu the gateway's replicas may have in flight together are all in flight", c.limit)}
	case err != nil && ctx.Err() != nil:
		local()
		return nil, transportError(ctx, route, ctx.Err())
	case err != nil:
		return local, nil
	}
	return func() {
		cluster()
		local()
	}, nil
}

// acquireLocal takes a slot of this replica's cap, waiting within ctx when
// others are in flight.
func (c *concurrencyCap) acquireLocal(ctx context.Context, route string) (release func(), err error) {
	if c.sem.TryAcquire(1) {
		return func() { c.sem.Release(1) }, nil
	}
	if c.waiting.Add(1) > c.limit {
		c.waiting.Add(-1)
		return nil, &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
			Excerpt: fmt.Sprintf("more than %d requests to Dagu in flight and %d waiting", c.limit, c.limit)}
	}
	defer c.waiting.Add(-1)
	if err := c.sem.Acquire(ctx, 1); err != nil {
		return nil, transportError(ctx, route, err)
	}
	return func() { c.sem.Release(1) }, nil
}
