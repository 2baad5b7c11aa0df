// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"slices"
	"testing"
	"time"
)

// queued queues a reservation of n bytes for o as a waiting ReserveFor
// does, without a goroutine: the test reads its grant off the waiter.
func queued(b *Budget, o Owner, n int64) *waiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.enqueue(o, n, 0)
	b.grant()
	return w
}

func isGranted(w *waiter) bool {
	select {
	case <-w.granted:
		return true
	default:
		return false
	}
}

type hold struct {
	caller string
	n      int64
}

// TestFreedMemoryGoesToTheCallerHoldingLeast: the bytes given back go to
// the waiting reservation whose caller holds the least (ties: the
// earliest), so a caller with nothing in flight is served before callers
// holding several shares' worth, and a caller over its fair part takes
// none of them while a caller under its part waits. Shares are large
// here (a floor of 700 of 1000), as when the largest read is a large
// part of the budget: the budget as a whole is what runs out.
func TestFreedMemoryGoesToTheCallerHoldingLeast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		held    []hold // taken first, in order
		waiting []hold // queued in arrival order
		steps   [][]int
		// steps: the held reservations released at each step, and
		// want: the waiting ones granted after each step.
		want [][]int
	}{
		{
			name:    "a caller with nothing in flight before one holding more",
			held:    []hold{{"a", 500}, {"a", 100}, {"b", 400}},
			waiting: []hold{{"a", 100}, {"b", 100}, {"v", 100}},
			steps:   [][]int{{1}},
			want:    [][]int{{2}},
		},
		{
			name:    "ties in arrival order",
			held:    []hold{{"a", 600}, {"b", 300}, {"a", 100}},
			waiting: []hold{{"v", 100}, {"w", 100}},
			steps:   [][]int{{2}},
			want:    [][]int{{0}},
		},
		{
			name:    "the least holding of those in flight",
			held:    []hold{{"a", 500}, {"b", 300}, {"c", 100}, {"x", 100}},
			waiting: []hold{{"a", 100}, {"b", 100}, {"c", 100}},
			steps:   [][]int{{3}},
			want:    [][]int{{2}},
		},
		{
			name:    "over its part takes nothing while one under its part waits",
			held:    []hold{{"a", 600}, {"b", 300}, {"x", 100}},
			waiting: []hold{{"v", 300}, {"a", 50}},
			steps:   [][]int{{2}, {1}},
			want:    [][]int{{}, {0, 1}},
		},
		{
			name:    "with no one under its part waiting, one over it takes the bytes",
			held:    []hold{{"a", 600}, {"b", 300}, {"x", 100}},
			waiting: []hold{{"a", 50}},
			steps:   [][]int{{2}},
			want:    [][]int{{0}},
		},
		{
			name:    "a caller's own reads rank it as they are granted",
			held:    []hold{{"a", 400}, {"b", 300}, {"x", 200}, {"y", 100}},
			waiting: []hold{{"b", 100}, {"v", 100}, {"v", 100}},
			steps:   [][]int{{2}},
			want:    [][]int{{1, 2}},
		},
		{
			name:    "one whose own share is spent does not hold up the others",
			held:    []hold{{"a", 700}, {"b", 200}, {"x", 100}},
			waiting: []hold{{"a", 100}, {"b", 100}},
			steps:   [][]int{{2}},
			want:    [][]int{{1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := New("test", 1000)
			b.SetWait(time.Hour)
			b.RaiseFloor(700)
			var held []*Reservation
			for _, h := range tt.held {
				r, err := b.ReserveFor(context.Background(), Owner{Caller: h.caller}, h.n, false)
				if err != nil {
					t.Fatalf("holding %d for %s: %v", h.n, h.caller, err)
				}
				held = append(held, r)
			}
			var waiting []*waiter
			for _, h := range tt.waiting {
				w := queued(b, Owner{Caller: h.caller}, h.n)
				if isGranted(w) {
					t.Fatalf("%d for %s was granted before anything was given back", h.n, h.caller)
				}
				waiting = append(waiting, w)
			}
			for i, step := range tt.steps {
				for _, r := range step {
					held[r].Release()
				}
				var got []int
				for j, w := range waiting {
					if isGranted(w) {
						got = append(got, j)
					}
				}
				if !slices.Equal(got, tt.want[i]) {
					t.Fatalf("step %d: granted %v, want %v", i, got, tt.want[i])
				}
			}
			if b.InUse() > b.Limit() {
				t.Fatalf("in use %d past the limit", b.InUse())
			}
		})
	}
}

// TestANewcomerHoldingLessPassesAWaiter: a reservation that fits is taken
// at once unless a reservation waiting for the budget ranks before it (its
// caller holds no more); it never passes one that does.
func TestANewcomerHoldingLessPassesAWaiter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		newcomer hold
		want     bool
	}{
		{name: "nothing in flight", newcomer: hold{"v", 100}, want: true},
		{name: "holding less than the waiter's caller", newcomer: hold{"b", 100}, want: true},
		{name: "the waiter's own caller", newcomer: hold{"a", 100}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := New("test", 1000)
			b.SetWait(time.Hour)
			b.RaiseFloor(900)
			for _, h := range []hold{{"a", 600}, {"b", 300}} {
				if _, err := b.ReserveFor(context.Background(), Owner{Caller: h.caller}, h.n, false); err != nil {
					t.Fatal(err)
				}
			}
			w := queued(b, Owner{Caller: "a"}, 200) // 100 free: it waits
			_, err := b.ReserveFor(context.Background(), Owner{Caller: tt.newcomer.caller}, tt.newcomer.n, false)
			if got := err == nil; got != tt.want {
				t.Fatalf("the newcomer taken: %v (%v), want %v", got, err, tt.want)
			}
			if isGranted(w) {
				t.Fatal("the waiter was granted with 100 bytes free")
			}
		})
	}
}

// TestASingleBigReadComesBeforeSomeoneElsesMany: a caller's one read
// growing ranks by what the caller holds apart from it, so it is served
// before callers with several reads in flight however much it holds
// itself; the same caller with a second read in flight ranks by that one.
func TestASingleBigReadComesBeforeSomeoneElsesMany(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		victimMore bool // the victim has a second read in flight
		want       []string
	}{
		{name: "one read growing", want: []string{"v"}},
		{name: "two reads in flight", victimMore: true, want: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := New("test", 1000)
			b.SetWait(time.Hour)
			b.RaiseFloor(700)
			v, err := b.ReserveFor(context.Background(), Owner{Caller: "v"}, 400, false) // a big read, part grown
			if err != nil {
				t.Fatal(err)
			}
			if tt.victimMore {
				if _, err := b.ReserveFor(context.Background(), Owner{Caller: "v"}, 200, false); err != nil {
					t.Fatal(err)
				}
			}
			a1, _ := b.ReserveFor(context.Background(), Owner{Caller: "a"}, 100, false)
			_, _ = b.ReserveFor(context.Background(), Owner{Caller: "a"}, 100, false)
			_, _ = fill(t, b, Owner{Caller: "x"}, 100)
			b.mu.Lock()
			growing := b.enqueue(Owner{Caller: "v"}, 100, v.Held()) // v's read grows
			b.mu.Unlock()
			other := queued(b, Owner{Caller: "a"}, 100) // a's third read
			a1.Release()
			var got []string
			if isGranted(growing) {
				got = append(got, "v")
			}
			if isGranted(other) {
				got = append(got, "a")
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("granted %v, want %v", got, tt.want)
			}
		})
	}
}
