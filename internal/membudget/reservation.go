// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"sync"
)

// Reservation is what one request holds of a budget, counted against its
// owner's shares: it grows as the request's work needs more (its answer,
// the log text read for it, Dagu's bodies being read for it), gives back
// what that work no longer holds, and Release gives all of it back at
// once (the front door releases it when the request's handler returns,
// whether the answer was written, abandoned by a client that went away,
// or cut short by a panic). A nil *Reservation accounts nothing. It is
// safe for concurrent use.
type Reservation struct {
	budget *Budget
	owner  Owner

	mu       sync.Mutex
	held     int64
	stray    int64 // drawn from the budget itself after Release (Draw)
	released bool
}

// Reserve takes n bytes of b for a new reservation of no share, or
// refuses at once.
func (b *Budget) Reserve(n int64) (*Reservation, error) {
	return b.reserve(context.Background(), Owner{}, n, false)
}

// ReserveFor takes n bytes of b for a new reservation counted against
// o's shares. When they do not fit now it waits for them (up to
// ShareWait, within ctx) if wait is set, else refuses at once.
func (b *Budget) ReserveFor(ctx context.Context, o Owner, n int64, wait bool) (*Reservation, error) {
	return b.reserve(ctx, o, n, wait)
}

func (b *Budget) reserve(ctx context.Context, o Owner, n int64, wait bool) (*Reservation, error) {
	if err := b.acquire(ctx, o, max(n, 0), 0, wait); err != nil {
		return nil, err
	}
	return &Reservation{budget: b, owner: o, held: max(n, 0)}, nil
}

// Grow reserves n more bytes, or refuses at once without taking any. A
// released reservation refuses every growth.
func (r *Reservation) Grow(n int64) error {
	return r.grow(context.Background(), n, false)
}

// GrowWithin reserves n more bytes, waiting for them up to ShareWait
// within ctx when they do not fit now; a refusal takes none.
func (r *Reservation) GrowWithin(ctx context.Context, n int64) error {
	return r.grow(ctx, n, true)
}

func (r *Reservation) grow(ctx context.Context, n int64, wait bool) error {
	if r == nil || n <= 0 {
		return nil
	}
	if r.isReleased() {
		return r.budget.refusal(n, false)
	}
	if err := r.budget.acquire(ctx, r.owner, n, r.Held(), wait); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released { // released while waiting: the bytes go back
		r.budget.lockedGive(r.owner, n)
		return r.budget.refusal(n, false)
	}
	r.held += n
	return nil
}

// Held is how many bytes the reservation holds.
func (r *Reservation) Held() int64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// Release gives back everything the reservation holds; calling it again
// does nothing.
func (r *Reservation) Release() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released {
		return
	}
	r.released = true
	r.budget.lockedGive(r.owner, r.held)
	r.held = 0
}

func (r *Reservation) isReleased() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.released
}

// lockedGive is give under the budget's lock.
func (b *Budget) lockedGive(o Owner, n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.give(o, n)
}

type reservationKey struct{}

// WithReservation returns ctx carrying the request's reservation.
func WithReservation(ctx context.Context, r *Reservation) context.Context {
	return context.WithValue(ctx, reservationKey{}, r)
}

// From returns the request's reservation, or nil (which accounts
// nothing) when ctx carries none.
func From(ctx context.Context) *Reservation {
	r, _ := ctx.Value(reservationKey{}).(*Reservation)
	return r
}
