// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// acquire takes one of the Profiler's read slots, waiting while all are
// taken. A read whose clock stops first is refused as unavailable; the
// caller releases the slot through the hold.
func (p *Profiler) acquire(clock *readClock) (*slotHold, error) {
	if !p.slots.TryAcquire(1) {
		ctx, cancel := clock.waitContext()
		err := p.slots.Acquire(ctx, 1)
		cancel()
		if err != nil {
			return nil, errBusy(p.concurrency, err)
		}
	}
	h := &slotHold{slots: p.slots}
	h.holders.Store(1)
	return h, nil
}

// slotHold is one taken read slot. Work that cannot stop when its read
// does (excelize's decryption) joins the hold, and the slot is given back
// when the read and that work have both ended: a read answered at its
// deadline never leaves more than Concurrency reads' work running.
type slotHold struct {
	slots   *semaphore.Weighted
	holders atomic.Int32
}

// join adds a holder; it must call release when it ends.
func (h *slotHold) join() { h.holders.Add(1) }

// release drops a holder; the last one gives the slot back.
func (h *slotHold) release() {
	if h.holders.Add(-1) == 0 {
		h.slots.Release(1)
	}
}
