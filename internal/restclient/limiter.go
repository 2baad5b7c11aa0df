// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fairshare"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
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
// that a request is refused at once (Error.Busy), never queued. Clients of
// several Dagu servers sharing it each hold a fair share (fairshare): one
// server's client may have at most n less a reserve of slots in flight, and
// as many waiting, the reserve being min(n/2, 2 × (clients − 1)). With a
// shared budget, a request holding one of this replica's slots also takes
// one of the cluster's before it is sent. Within one server's share the
// slots are fair between callers (callerOf): a freed slot goes to the
// waiting request of the caller holding the fewest of that server's, and
// when the queue is full the request refused is one of the caller holding
// the most (fairshare), so one caller's flood costs that caller alone.
// The shared budget is not fair between callers: it is taken only by
// requests that hold a local slot already.
type concurrencyCap struct {
	pool    *fairshare.Pool
	waiting atomic.Int64 // requests waiting for a slot, of every client
	limit   int64
	shared  SharedBudget
}

// callerOf names whom a request to Dagu is made for, so that the slots are
// fair between callers (fairshare): a verified caller by the name the
// front door gave it (whose credential it is), every unverified caller
// together (an address is no identity to be fair to: one client could
// take many), and "" for work no caller's request carries (readiness and
// capability probes, stdio's local user).
func callerOf(ctx context.Context) string {
	info, ok := reqctx.From(ctx)
	switch {
	case !ok || info.Trust == "":
		return ""
	case info.Trust == reqctx.TrustVerified:
		return "caller:" + info.Caller
	}
	return "unverified"
}

// slotsReservedPerOther is how many slots each other Dagu server keeps out
// of one server's reach (within half the cap).
const slotsReservedPerOther = 2

func newConcurrencyCap(n int, shared SharedBudget) *concurrencyCap {
	if n <= 0 {
		n = DefaultConcurrency
	}
	return &concurrencyCap{pool: fairshare.NewPool(n, slotsReservedPerOther), limit: int64(n), shared: shared}
}

// acquire takes a slot of this replica's cap within the client's share,
// then of the shared budget.
func (c *concurrencyCap) acquire(ctx context.Context, share *fairshare.Share, route string) (release func(), err error) {
	local, err := c.acquireLocal(ctx, share, route)
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

// acquireLocal takes a slot of this replica's cap for the request's
// caller (callerOf), waiting within ctx when others are in flight.
func (c *concurrencyCap) acquireLocal(ctx context.Context, share *fairshare.Share, route string) (release func(), err error) {
	caller := callerOf(ctx)
	if release, ok := share.TryAcquireFor(caller); ok {
		return release, nil
	}
	c.waiting.Add(1)
	defer c.waiting.Add(-1)
	release, outcome := share.AcquireFor(ctx, caller)
	switch outcome {
	case fairshare.Taken:
		return release, nil
	case fairshare.PoolQueueFull:
		return nil, &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
			Excerpt: fmt.Sprintf("more than %d requests to Dagu in flight and %d waiting", c.limit, c.limit)}
	case fairshare.ShareQueueFull:
		n := share.Limit()
		return nil, &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
			Excerpt: fmt.Sprintf("this Dagu server's share of requests in flight (%d) and waiting (%d) is taken", n, n)}
	case fairshare.Displaced:
		return nil, &Error{Route: route, Busy: true, RetryAfter: busyRetryAfter,
			Excerpt: fmt.Sprintf("more than %d requests to Dagu in flight and %d waiting, and this caller's are the most of them", c.limit, c.limit)}
	}
	return nil, transportError(ctx, route, ctx.Err())
}
