// SPDX-License-Identifier: Apache-2.0

package membudget

import "context"

// Drawer is what work done for a request draws its bytes from (Dagu's
// bodies being read): the request's reservation, so that they count
// against its caller's and its instance's shares, or the budget itself
// for work no request carries. Work that outlives its request (a shared
// capability detection the request started) draws on the budget itself
// once the reservation is released. The zero Drawer accounts nothing.
type Drawer struct {
	budget *Budget
	r      *Reservation
}

// DrawerFor is what work within ctx draws on: the reservation ctx
// carries, else b.
func DrawerFor(ctx context.Context, b *Budget) Drawer {
	if r := From(ctx); r != nil {
		return Drawer{budget: r.budget, r: r}
	}
	return Drawer{budget: b}
}

// Draw takes n bytes; when they do not fit now it waits for them (up to
// ShareWait, within ctx) if wait is set, else refuses at once.
func (d Drawer) Draw(ctx context.Context, n int64, wait bool) error {
	if d.r == nil {
		if d.budget.TryTake(n) {
			return nil
		}
		return d.budget.refusal(n, false)
	}
	return d.r.draw(ctx, n, wait)
}

// Return gives back n bytes drawn before.
func (d Drawer) Return(n int64) {
	if d.r == nil {
		d.budget.Give(n)
		return
	}
	d.r.giveBack(n)
}

// draw grows the reservation, or takes the bytes from the budget itself
// once it is released.
func (r *Reservation) draw(ctx context.Context, n int64, wait bool) error {
	if n <= 0 {
		return nil
	}
	if r.isReleased() {
		return r.drawStray(n)
	}
	err := r.grow(ctx, n, wait)
	if err != nil && r.isReleased() {
		return r.drawStray(n)
	}
	return err
}

func (r *Reservation) drawStray(n int64) error {
	if err := r.budget.Take(n); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stray += n
	return nil
}

// giveBack returns n drawn bytes: to the reservation while it holds them,
// after Release (which gave back all it held) only what was drawn from
// the budget itself since.
func (r *Reservation) giveBack(n int64) {
	if n <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.released {
		n = min(n, r.held)
		r.held -= n
		r.budget.lockedGive(r.owner, n)
		return
	}
	s := min(n, r.stray)
	r.stray -= s
	r.budget.lockedGive(Owner{}, s)
}
