// SPDX-License-Identifier: Apache-2.0

package membudget

import "time"

// Waiting is how many reservations wait now.
func (b *Budget) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}

// Shares is how many shares of each level are in use.
func (b *Budget) Shares() (callers, instances int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.members[levelCaller]), len(b.members[levelInstance])
}

// SetWait sets how long reservations wait (tests wait for as long as
// their contexts say).
func (b *Budget) SetWait(d time.Duration) { b.wait = d }

// SetClock sets the clock of the instances' linger.
func (b *Budget) SetClock(now func() time.Time) { b.now = now }
