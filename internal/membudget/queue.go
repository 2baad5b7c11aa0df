// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
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
	granted chan struct{} // closed once the bytes are taken for it
}

// acquire takes n bytes for o: at once when they fit and no reservation
// that waits for the budget came first, else (wait) waiting up to
// ShareWait within ctx for them to be given back. A refusal says whether
// the share or the budget refused.
func (b *Budget) acquire(ctx context.Context, o Owner, n int64, wait bool) error {
	if b == nil || n <= 0 {
		return nil
	}
	b.mu.Lock()
	f := b.check(o, n)
	if f == fits && !b.budgetWaiterQueued() {
		b.take(o, n)
		b.mu.Unlock()
		return nil
	}
	if !wait || !b.mayWait(o, n) {
		b.mu.Unlock()
		b.refusals.Add(1)
		return b.refusal(n, f == overShare)
	}
	w := b.enqueue(o, n)
	b.mu.Unlock()
	return b.await(ctx, w)
}

// budgetWaiterQueued reports whether a waiting reservation is held up by
// the budget as a whole rather than its share: a newcomer does not pass
// it, so a big read waiting is not starved by small ones.
func (b *Budget) budgetWaiterQueued() bool {
	for _, w := range b.queue {
		if b.check(w.owner, w.n) == overBudget {
			return true
		}
	}
	return false
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

func (b *Budget) enqueue(o Owner, n int64) *waiter {
	w := &waiter{owner: o, n: n, granted: make(chan struct{})}
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
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			b.countWaiting(w.owner, -1)
			return
		}
	}
}

// grant hands free bytes to the waiting in arrival order. One whose
// share is spent does not hold up the others; the first held up by the
// budget as a whole holds up those behind it.
func (b *Budget) grant() {
	kept := b.queue[:0]
	blocked := false
	for _, w := range b.queue {
		if !blocked {
			switch b.check(w.owner, w.n) {
			case fits:
				b.take(w.owner, w.n)
				b.countWaiting(w.owner, -1)
				close(w.granted)
				continue
			case overBudget:
				blocked = true
			}
		}
		kept = append(kept, w)
	}
	clear(b.queue[len(kept):])
	b.queue = kept
}
