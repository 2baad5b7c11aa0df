// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"sync"
)

// Reservation is what one request holds of a budget: it grows as the
// request's work needs more, and Release gives all of it back at once
// (the front door releases it when the request's handler returns, whether
// the answer was written, abandoned by a client that went away, or cut
// short by a panic). A nil *Reservation accounts nothing. It is safe for
// concurrent use.
type Reservation struct {
	budget *Budget

	mu       sync.Mutex
	held     int64
	released bool
}

// Reserve takes n bytes of b for a new reservation, or refuses.
func (b *Budget) Reserve(n int64) (*Reservation, error) {
	if err := b.Take(n); err != nil {
		return nil, err
	}
	return &Reservation{budget: b, held: max(n, 0)}, nil
}

// Grow reserves n more bytes, or refuses without taking any. A released
// reservation refuses every growth.
func (r *Reservation) Grow(n int64) error {
	if r == nil || n <= 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released {
		return r.budget.refusal(n)
	}
	if err := r.budget.Take(n); err != nil {
		return err
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
	r.budget.Give(r.held)
	r.held = 0
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
