// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"slices"
	"time"
)

// ShareWait is the longest a reservation waits for bytes to be given back
// before it is refused: what the caller's own reads in flight, or the
// reads of a caller over its fair part, give back within about one read.
const ShareWait = time.Second

// Bounds of the reservations waiting: in all, and of one share.
const (
	maxWaiters      = 256
	maxShareWaiters = 8
)

// waiter is one reservation waiting for bytes.
type waiter struct {
	owner   Owner
	n       int64
	own     int64         // what the reservation growing holds already
	granted chan struct{} // closed once the bytes are taken for it
}

// acquire takes n bytes for o (own: what the reservation growing holds
// already): at once when they fit and no reservation waiting ranks before
// it (next), else (wait) waiting up to ShareWait within ctx for them to be
// given back. A refusal says whether the share or the budget refused.
func (b *Budget) acquire(ctx context.Context, o Owner, n, own int64, wait bool) error {
	if b == nil || n <= 0 {
		return nil
	}
	b.mu.Lock()
	f := b.check(o, n)
	if f == fits {
		if w := b.next(); w == nil || b.rank(o, own) < b.rank(w.owner, w.own) {
			b.take(o, n)
			b.mu.Unlock()
			return nil
		}
	}
	if !wait || !b.mayWait(o, n) {
		b.mu.Unlock()
		b.refusals.Add(1)
		return b.refusal(n, f == overShare)
	}
	w := b.enqueue(o, n, own)
	b.grant() // w may come first
	b.mu.Unlock()
	return b.await(ctx, w)
}

// mayWait reports whether a reservation may wait: it can fit some day,
// and the queue and the owner's part of it have room.
func (b *Budget) mayWait(o Owner, n int64) bool {
	if n > b.largestShare() || n > b.limit || len(b.queue) >= maxWaiters {
		return false
	}
	for level := range levels {
		key := o.key(level)
		if m := b.members[level][key]; key != "" && m != nil && m.waiting >= maxShareWaiters {
			return false
		}
	}
	return true
}

func (b *Budget) enqueue(o Owner, n, own int64) *waiter {
	w := &waiter{owner: o, n: n, own: own, granted: make(chan struct{})}
	b.queue = append(b.queue, w)
	b.countWaiting(o, 1)
	return w
}

func (b *Budget) countWaiting(o Owner, delta int) {
	for level := range levels {
		if key := o.key(level); key != "" {
			b.member(level, key).waiting += delta
			b.forget(level, key)
		}
	}
}

// await waits for w's bytes; when ctx ends or the wait passes first,
// w leaves the queue and is refused.
func (b *Budget) await(ctx context.Context, w *waiter) error {
	select {
	case <-w.granted: // granted as it was queued
		return nil
	default:
	}
	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	select {
	case <-w.granted:
		return nil
	case <-ctx.Done():
	case <-timer.C:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.granted: // granted as the wait ended: the bytes are taken
		return nil
	default:
	}
	share := b.check(w.owner, w.n) == overShare
	b.remove(w)
	b.refusals.Add(1)
	b.grant() // w may have held up others
	return b.refusal(w.n, share)
}

func (b *Budget) remove(w *waiter) {
	for i, q := range b.queue {
		if q == w {
			b.queue = slices.Delete(b.queue, i, i+1)
			b.countWaiting(w.owner, -1)
			return
		}
	}
}

// grant hands free bytes to the waiting fairly: the reservation that
// ranks first (next) is granted while it fits; when the budget as a whole
// cannot take it yet, the bytes given back are kept for it, so the
// reservations of callers holding more wait behind it. So a caller with
// nothing in flight gets the next bytes given back before a caller
// holding several shares' worth, a caller over its fair part (the budget
// divided among the callers in use) takes none of them while a caller
// under its part waits for them, and a caller's one read growing (a big
// read, step by step) comes before the callers with several reads.
func (b *Budget) grant() {
	for {
		w := b.next()
		if w == nil || b.check(w.owner, w.n) != fits {
			return
		}
		b.take(w.owner, w.n)
		b.remove(w)
		close(w.granted)
	}
}

// next is the waiting reservation granted first: of those whose shares
// have room, the one that ranks first (rank), the earliest on a tie (the
// queue is in arrival order); nil when none.
func (b *Budget) next() *waiter {
	var first *waiter
	var least int64
	for _, w := range b.queue {
		if b.check(w.owner, w.n) == overShare {
			continue // its own share holds it up, not the budget
		}
		if r := b.rank(w.owner, w.own); first == nil || r < least {
			first, least = w, r
		}
	}
	return first
}

// rank orders the reservations of o, the growing one holding own: what
// o's caller holds in its other requests (0 for no caller). A caller with
// nothing else in flight ranks first, whatever its one read holds, so a
// single big read is not starved by someone else's many.
func (b *Budget) rank(o Owner, own int64) int64 {
	if m := b.members[levelCaller][o.Caller]; o.Caller != "" && m != nil {
		return max(m.held-own, 0)
	}
	return 0
}
