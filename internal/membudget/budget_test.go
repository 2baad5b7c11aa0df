// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// TestReservationsRefuseWhenFull: a reservation that does not fit is
// refused at once and takes nothing; released bytes can be taken again.
func TestReservationsRefuseWhenFull(t *testing.T) {
	t.Parallel()
	b := New("test budget", 100)
	first, err := b.Reserve(60)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reserve(41); !errors.Is(err, ErrSpent) {
		t.Fatalf("reserve past the limit: %v", err)
	}
	if err := first.Grow(41); !errors.Is(err, ErrSpent) || b.InUse() != 60 || first.Held() != 60 {
		t.Fatalf("grow past the limit: %v, in use %d, held %d", err, b.InUse(), first.Held())
	}
	if err := first.Grow(40); err != nil || b.InUse() != 100 {
		t.Fatalf("grow to the limit: %v, in use %d", err, b.InUse())
	}
	first.Release()
	first.Release()
	if b.InUse() != 0 {
		t.Fatalf("in use after release: %d", b.InUse())
	}
	if err := first.Grow(1); err == nil {
		t.Fatal("a released reservation grew")
	}
	var refusal *Refusal
	if _, err := b.Reserve(101); !errors.As(err, &refusal) || refusal.Budget != "test budget" || refusal.Limit != 100 {
		t.Fatalf("refusal = %v", err)
	}
	if b.Refusals() != 3 { // the reservation of 41, the growth by 41, the reservation of 101
		t.Fatalf("refusals = %d, want 3", b.Refusals())
	}
}

// TestConcurrentReservationsNeverPassTheLimit: many reservations racing
// for the budget never hold more than it, and all of it comes back.
func TestConcurrentReservationsNeverPassTheLimit(t *testing.T) {
	t.Parallel()
	b := New("race", 1000)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				r, err := b.Reserve(300)
				if err != nil {
					continue
				}
				if used := b.InUse(); used > 1000 {
					t.Errorf("in use %d past the limit", used)
				}
				_ = r.Grow(300)
				r.Release()
			}
		}()
	}
	wg.Wait()
	if b.InUse() != 0 {
		t.Fatalf("in use after all releases: %d", b.InUse())
	}
}

// TestNilAccountsNothing: without a budget or a reservation nothing is
// refused.
func TestNilAccountsNothing(t *testing.T) {
	t.Parallel()
	var b *Budget
	if !b.TryTake(1<<40) || b.Take(1) != nil || b.InUse() != 0 {
		t.Fatal("a nil budget refused or counted")
	}
	r := From(context.Background())
	if r.Grow(1<<40) != nil || r.Held() != 0 {
		t.Fatal("a nil reservation refused or counted")
	}
	r.Release()
	real, _ := New("b", 10).Reserve(5)
	if From(WithReservation(context.Background(), real)) != real {
		t.Fatal("the context lost the reservation")
	}
}
