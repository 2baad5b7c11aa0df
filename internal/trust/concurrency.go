// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Concurrency bounds the reads one caller has in flight at once
// (--caller-concurrency), keyed like Limits by the name the front door
// gave the caller: who the credential belongs to where Dagu says it, so
// several logins or copies of one key share one allowance, and one caller
// cannot take every upstream connection from the rest of the team. It
// keeps a counter only while a caller has reads in flight, so its size is
// bounded by the reads in flight, not by the callers ever seen.
type Concurrency struct {
	max      int
	mu       sync.Mutex
	inFlight map[string]int
}

// NewConcurrency allows max reads in flight per caller; nil (no limit)
// when max is 0 or less.
func NewConcurrency(max int) *Concurrency {
	if max <= 0 {
		return nil
	}
	return &Concurrency{max: max, inFlight: map[string]int{}}
}

// Acquire takes one of the caller's places; release gives it back and must
// be called once when ok. A nil Concurrency admits all.
func (c *Concurrency) Acquire(ctx context.Context) (release func(), ok bool) {
	if c == nil {
		return func() {}, true
	}
	info, _ := reqctx.From(ctx)
	caller := info.Caller
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight[caller] >= c.max {
		return nil, false
	}
	c.inFlight[caller]++
	var once sync.Once
	return func() { once.Do(func() { c.release(caller) }) }, true
}

// release gives one place of caller back and forgets an idle caller.
func (c *Concurrency) release(caller string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight[caller]--; c.inFlight[caller] <= 0 {
		delete(c.inFlight, caller)
	}
}
