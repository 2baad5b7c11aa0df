// SPDX-License-Identifier: Apache-2.0

package workbook

import "context"

// acquire takes one of the Profiler's read slots, waiting while all are
// taken. A ctx that ends first refuses the read as unavailable; the caller
// releases the slot with p.slots.Release(1).
func (p *Profiler) acquire(ctx context.Context) error {
	if p.slots.TryAcquire(1) {
		return nil
	}
	if err := p.slots.Acquire(ctx, 1); err != nil {
		return errBusy(p.concurrency, err)
	}
	return nil
}
