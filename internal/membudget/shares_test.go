// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// fill reserves chunks for o without waiting until one is refused, and
// returns what it holds.
func fill(t *testing.T, b *Budget, o Owner, chunk int64) ([]*Reservation, int64) {
	t.Helper()
	var held []*Reservation
	var total int64
	for {
		r, err := b.ReserveFor(context.Background(), o, chunk, false)
		if err != nil {
			return held, total
		}
		held = append(held, r)
		total += chunk
	}
}

// TestAShareIsAFairPartOfAtLeastTheLargestRead: a share alone holds the
// budget less one largest read, with others in use its fair part, and
// never less than one largest read.
func TestAShareIsAFairPartOfAtLeastTheLargestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		budget       int64
		floor        int64
		others       int // other callers holding a byte each
		wantAtMost   int64
		wantInstance bool
	}{
		{name: "alone: the budget less one largest read", budget: 1000, floor: 300, wantAtMost: 700},
		{name: "alone, largest read over half: one largest read", budget: 1000, floor: 600, wantAtMost: 600},
		{name: "two: half", budget: 1000, floor: 300, others: 1, wantAtMost: 500},
		{name: "four: a quarter, but one largest read", budget: 1000, floor: 300, others: 3, wantAtMost: 300},
		{name: "no floor, five: a fifth", budget: 1000, others: 4, wantAtMost: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := New("test", tt.budget)
			b.RaiseFloor(tt.floor)
			for i := range tt.others {
				if _, err := b.ReserveFor(context.Background(), Owner{Caller: string(rune('b' + i))}, 1, false); err != nil {
					t.Fatal(err)
				}
			}
			_, got := fill(t, b, Owner{Caller: "a"}, 10)
			if got != tt.wantAtMost-tt.wantAtMost%10 {
				t.Fatalf("caller a holds %d, want %d", got, tt.wantAtMost)
			}
			var refusal *Refusal
			_, err := b.ReserveFor(context.Background(), Owner{Caller: "a"}, 10, false)
			if !errors.As(err, &refusal) || !refusal.Share || !errors.Is(err, ErrSpent) {
				t.Fatalf("a's next reservation: %v, want a share refusal", err)
			}
		})
	}
}

// TestOneCallersFloodCostsOnlyThatCaller: a caller that reserves all it
// can leaves another caller one largest read, and the callers of one
// instance leave a reader of another instance in use one too.
func TestOneCallersFloodCostsOnlyThatCaller(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		attackers []Owner
		victim    Owner
	}{
		{name: "one caller", attackers: []Owner{{Caller: "a"}}, victim: Owner{Caller: "v"}},
		{name: "one caller, many chunks of one instance", attackers: []Owner{{Caller: "a", Instance: "x"}}, victim: Owner{Caller: "v", Instance: "x"}},
		{name: "two callers of one instance", attackers: []Owner{{Caller: "a", Instance: "x"}, {Caller: "b", Instance: "x"}}, victim: Owner{Caller: "v", Instance: "y"}},
		{name: "unverified callers together", attackers: []Owner{{Caller: "unverified"}}, victim: Owner{Caller: "v"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := New("test", 1000)
			b.RaiseFloor(300)
			// The victim has read before: its instance is in use.
			if r, err := b.ReserveFor(context.Background(), tt.victim, 1, false); err == nil {
				r.Release()
			}
			for _, a := range tt.attackers {
				fill(t, b, a, 7)
			}
			if _, err := b.ReserveFor(context.Background(), tt.victim, 300, false); err != nil {
				t.Fatalf("the victim's largest read: %v (in use %d)", err, b.InUse())
			}
		})
	}
}

// TestAWaiterGetsTheBytesGivenBack: a reservation that does not fit waits
// and is granted when the bytes come back; one whose context ends is
// refused and leaves nothing behind.
func TestAWaiterGetsTheBytesGivenBack(t *testing.T) {
	t.Parallel()
	b := New("test", 1000)
	b.SetWait(time.Hour)
	b.RaiseFloor(300)
	held, _ := fill(t, b, Owner{Caller: "a"}, 100)
	done := make(chan error, 1)
	go func() {
		r, err := b.ReserveFor(context.Background(), Owner{Caller: "a"}, 100, true)
		if err == nil {
			r.Release()
		}
		done <- err
	}()
	waitFor(t, func() bool { return b.Waiting() == 1 })
	held[0].Release()
	if err := <-done; err != nil {
		t.Fatalf("the waiter: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := b.ReserveFor(ctx, Owner{Caller: "a"}, 200, true)
		done <- err
	}()
	waitFor(t, func() bool { return b.Waiting() == 1 })
	cancel()
	var refusal *Refusal
	if err := <-done; !errors.As(err, &refusal) || !refusal.Share {
		t.Fatalf("the canceled waiter: %v", err)
	}
	for _, r := range held {
		r.Release()
	}
	if b.InUse() != 0 || b.Waiting() != 0 {
		t.Fatalf("in use %d, waiting %d after all releases", b.InUse(), b.Waiting())
	}
	if callers, instances := b.Shares(); callers+instances != 0 {
		t.Fatalf("shares kept: %d callers, %d instances", callers, instances)
	}
}

// TestABigWaiterIsNotPassedBySmallOnes: once a reservation waits for the
// budget as a whole, a newcomer that would fit waits behind it.
func TestABigWaiterIsNotPassedBySmallOnes(t *testing.T) {
	t.Parallel()
	b := New("test", 1000)
	b.SetWait(time.Hour)
	a, _ := b.ReserveFor(context.Background(), Owner{Caller: "a"}, 500, false)
	c, _ := b.ReserveFor(context.Background(), Owner{Caller: "c"}, 300, false)
	done := make(chan error, 1)
	go func() {
		_, err := b.ReserveFor(context.Background(), Owner{Caller: "v"}, 300, true)
		done <- err
	}()
	waitFor(t, func() bool { return b.Waiting() == 1 })
	if _, err := b.ReserveFor(context.Background(), Owner{Caller: "d"}, 10, false); err == nil {
		t.Fatal("a newcomer passed the waiting big reservation")
	}
	a.Release()
	if err := <-done; err != nil {
		t.Fatalf("the big waiter: %v", err)
	}
	c.Release()
}

// TestDrawsOutliveTheirRequest: work drawing on a request's reservation
// counts against it, and once it is released draws on the budget itself;
// everything drawn comes back.
func TestDrawsOutliveTheirRequest(t *testing.T) {
	t.Parallel()
	b := New("test", 1000)
	r, _ := b.ReserveFor(context.Background(), Owner{Caller: "a"}, 100, false)
	ctx := WithReservation(context.Background(), r)
	d := DrawerFor(ctx, b)
	if err := d.Draw(ctx, 200, false); err != nil || r.Held() != 300 {
		t.Fatalf("draw: %v, held %d", err, r.Held())
	}
	r.Release()
	if err := d.Draw(ctx, 50, false); err != nil || b.InUse() != 50 {
		t.Fatalf("draw after release: %v, in use %d", err, b.InUse())
	}
	d.Return(200) // drawn before the release: given back with it
	d.Return(50)
	if b.InUse() != 0 {
		t.Fatalf("in use %d after every return", b.InUse())
	}
	plain := DrawerFor(context.Background(), b)
	if err := plain.Draw(ctx, 1001, false); !errors.Is(err, ErrSpent) {
		t.Fatalf("a draw past the budget: %v", err)
	}
}

// TestSharedReservationsNeverPassTheirShares: callers racing, waiting and
// growing never hold more than the budget, and everything comes back.
func TestSharedReservationsNeverPassTheirShares(t *testing.T) {
	t.Parallel()
	b := New("race", 1000)
	b.RaiseFloor(200)
	var wg sync.WaitGroup
	for i := range 12 {
		o := Owner{Caller: string(rune('a' + i%4)), Instance: string(rune('x' + i%2))}
		wg.Go(func() {
			for range 300 {
				r, err := b.ReserveFor(context.Background(), o, 90, i%3 == 0)
				if err != nil {
					continue
				}
				if used := b.InUse(); used > 1000 {
					t.Errorf("in use %d past the limit", used)
				}
				_ = r.GrowWithin(context.Background(), 60)
				d := DrawerFor(WithReservation(context.Background(), r), b)
				if d.Draw(context.Background(), 30, false) == nil {
					d.Return(30)
				}
				r.Release()
			}
		})
	}
	wg.Wait()
	if b.InUse() != 0 || b.Waiting() != 0 {
		t.Fatalf("in use %d, waiting %d after all releases", b.InUse(), b.Waiting())
	}
}

// waitFor yields until cond holds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		runtime.Gosched()
	}
}

// TestAnInstanceKeepsItsShareBetweenReads: an instance read within
// instanceLinger is still in use, so another instance's callers leave it
// its part; past the linger they have the budget, each within its own
// caller's share.
func TestAnInstanceKeepsItsShareBetweenReads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		idle       time.Duration
		wantAtMost int64
	}{
		{name: "read 9 s ago: half", idle: 9 * time.Second, wantAtMost: 500},
		{name: "read 11 s ago: the callers' shares alone", idle: 11 * time.Second, wantAtMost: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			now := time.Unix(1_000_000, 0)
			b := New("test", 1000)
			b.SetClock(func() time.Time { return now })
			b.RaiseFloor(300)
			r, err := b.ReserveFor(context.Background(), Owner{Caller: "v", Instance: "y"}, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			r.Release()
			now = now.Add(tt.idle)
			_, a := fill(t, b, Owner{Caller: "a", Instance: "x"}, 10)
			_, c := fill(t, b, Owner{Caller: "c", Instance: "x"}, 10)
			if a+c != tt.wantAtMost {
				t.Fatalf("the callers of x hold %d, want %d", a+c, tt.wantAtMost)
			}
		})
	}
}
