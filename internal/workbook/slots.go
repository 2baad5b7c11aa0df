// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// busyRetryAfter is the wait a read refused for want of a slot is told to
// take.
const busyRetryAfter = time.Second

// unverifiedCaller is the caller every unverified request counts as: they
// share one caller's part of the slots, as they share one caller's share
// of the memory budget.
const unverifiedCaller = "unverified"

// callerOf names the caller whose part of the slots a read counts
// against: the caller the front door verified (reqctx.Info's Caller: an
// inbound token's name, whose Dagu key, which person), every unverified
// caller together, or "" outside a request (stdio: the local user).
func callerOf(ctx context.Context) string {
	info, ok := reqctx.From(ctx)
	switch {
	case !ok:
		return ""
	case info.Trust != reqctx.TrustVerified && info.Trust != "":
		return unverifiedCaller
	}
	return info.Caller
}

// slots are the Profiler's read slots, shared fairly between callers. A
// read takes a free slot at once when no read waits. Otherwise it waits,
// and each freed slot goes to the waiting caller that holds the fewest
// slots; of callers holding as many, the one given a slot longest ago (a
// caller never given one first), then the read that came first. So one
// caller's many reads cost only that caller: while another caller waits,
// a caller is never given a slot beyond its fair part (the slots divided
// as evenly as the callers' reads allow: a caller that needs fewer leaves
// the rest to the others), and a caller alone may use every slot. Slots
// are not taken back from a read in progress: a caller that holds every
// slot when another arrives keeps them until its reads end, and the
// newcomer gets the first one freed.
type slots struct {
	mu      sync.Mutex
	n       int
	inUse   int
	held    map[string]int // slots in use by each caller that holds one
	waiters []*slotWaiter  // in arrival order
	// served is when each caller that holds or waits was last given a
	// slot, counted in grants (turn).
	served map[string]uint64
	turn   uint64
}

type slotWaiter struct {
	caller  string
	granted chan struct{}
}

func newSlots(n int) *slots {
	return &slots{n: n, held: map[string]int{}, served: map[string]uint64{}}
}

// acquire takes a slot for caller, waiting until ctx ends; it returns
// ctx's error, and whether the caller then held at least its fair part
// of the slots (its own reads are what it waited for).
func (s *slots) acquire(ctx context.Context, caller string) (ownFault bool, err error) {
	w := s.enqueue(caller)
	select {
	case <-w.granted:
		return false, nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.granted: // granted as ctx ended: give it back
		s.give(caller)
	default:
		s.remove(w)
	}
	return s.held[caller] >= s.fairPart(), ctx.Err()
}

// enqueue asks for a slot for caller: its granted channel is closed when
// the slot is the caller's, at once when one is free.
func (s *slots) enqueue(caller string) *slotWaiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &slotWaiter{caller: caller, granted: make(chan struct{})}
	// No read waits while a slot is free (grant hands every freed slot
	// to a waiter), so a read that finds one free passes no one over.
	s.waiters = append(s.waiters, w)
	s.grant()
	return w
}

// release gives back a slot of caller's.
func (s *slots) release(caller string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.give(caller)
}

func (s *slots) take(caller string) {
	s.inUse++
	s.held[caller]++
	s.turn++
	s.served[caller] = s.turn
}

func (s *slots) give(caller string) {
	s.inUse--
	if s.held[caller]--; s.held[caller] <= 0 {
		delete(s.held, caller)
	}
	s.grant()
	s.forget(caller)
}

// forget drops when caller was last served once it holds no slot and no
// read of its waits: it then counts as a caller never served.
func (s *slots) forget(caller string) {
	if s.held[caller] > 0 {
		return
	}
	for _, w := range s.waiters {
		if w.caller == caller {
			return
		}
	}
	delete(s.served, caller)
}

// grant hands free slots to the waiters: each to the waiting caller that
// holds the fewest, of those the one served longest ago, then the read
// that came first. Without the middle rule one slot would go round in
// arrival order: a caller's reads queued before another's would all pass
// it, each holding none when the one before it ends. The fair part is
// then never exceeded: while a slot is free, the callers' reads (held and
// waiting, each caller's counted up to the fair part) outnumber the slots
// in use, so some waiting caller holds less than its fair part, and the
// one holding the fewest does too.
func (s *slots) grant() {
	for s.inUse < s.n && len(s.waiters) > 0 {
		best := 0
		for i, w := range s.waiters[1:] {
			if s.before(w.caller, s.waiters[best].caller) {
				best = i + 1
			}
		}
		w := s.waiters[best]
		s.waiters = append(s.waiters[:best], s.waiters[best+1:]...)
		s.take(w.caller)
		close(w.granted)
	}
}

// before reports whether a's waiting read goes before b's of a read
// that came earlier: a holds fewer slots, or as many and was served
// longer ago.
func (s *slots) before(a, b string) bool {
	if s.held[a] != s.held[b] {
		return s.held[a] < s.held[b]
	}
	return s.served[a] < s.served[b]
}

func (s *slots) remove(w *slotWaiter) {
	for i, x := range s.waiters {
		if x == w {
			s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
			s.forget(w.caller)
			return
		}
	}
}

// fairPart is how many slots one caller may hold while others wait: the
// slots divided as evenly as the callers' reads (held and waiting) allow,
// the smallest level L at which the callers' reads, each caller's counted
// up to L, fill every slot; every slot when they never do.
func (s *slots) fairPart() int {
	demand := make(map[string]int, len(s.held)+len(s.waiters))
	for caller, n := range s.held {
		demand[caller] = n
	}
	for _, w := range s.waiters {
		demand[w.caller]++
	}
	for level := 1; level < s.n; level++ {
		filled := 0
		for _, d := range demand {
			filled += min(d, level)
		}
		if filled >= s.n {
			return level
		}
	}
	return s.n
}

// acquire takes one of the Profiler's read slots for the read's caller,
// waiting while none is free to it. A read whose clock stops first is
// refused as unavailable; the caller releases the slot through the hold.
func (p *Profiler) acquire(clock *readClock) (*slotHold, error) {
	caller := callerOf(clock.ctx)
	wait, cancel := clock.waitContext()
	ownFault, err := p.slots.acquire(wait, caller)
	cancel()
	if err != nil {
		return nil, errBusy(p.concurrency, ownFault, err)
	}
	h := &slotHold{slots: p.slots, caller: caller}
	h.holders.Store(1)
	return h, nil
}

// slotHold is one taken read slot. Work that cannot stop when its read
// does (excelize's decryption) joins the hold, and the slot is given back
// when the read and that work have both ended: a read answered at its
// deadline never leaves more than Concurrency reads' work running.
type slotHold struct {
	slots   *slots
	caller  string
	holders atomic.Int32
}

// join adds a holder; it must call release when it ends.
func (h *slotHold) join() { h.holders.Add(1) }

// release drops a holder; the last one gives the slot back.
func (h *slotHold) release() {
	if h.holders.Add(-1) == 0 {
		h.slots.release(h.caller)
	}
}
