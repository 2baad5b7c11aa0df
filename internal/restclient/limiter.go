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

// concurrencyCap protects Dagu from bursts: at most n requests in flight,
// at most n more waiting (each no longer than its own deadline); beyond
// that a request is refused at once (Error.Busy), never queued.
type concurrencyCap struct {
	sem     *semaphore.Weighted
	waiting atomic.Int64
	limit   int64
}

func newConcurrencyCap(n int) *concurrencyCap {
	if n <= 0 {
		n = DefaultConcurrency
	}
	return &concurrencyCap{sem: semaphore.NewWeighted(int64(n)), limit: int64(n)}
}

// acquire takes a slot, waiting within ctx when others are in flight.
func (c *concurrencyCap) acquire(ctx context.Context, route string) (release func(), err error) {
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
