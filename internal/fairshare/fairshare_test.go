// SPDX-License-Identifier: Apache-2.0

package fairshare

import (
	"context"
	"testing"
)

// TestLimit: one member may hold the cap less min(cap/2, perOther ×
// (members − 1)); with one member, the whole cap.
func TestLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                 string
		cap, perOther, peers int
		want                 int
	}{
		{"one member, REST", 32, 2, 1, 32},
		{"two members, REST", 32, 2, 2, 30},
		{"nine members, REST", 32, 2, 9, 16},
		{"63 members, REST", 32, 2, 63, 16},
		{"one member, checks", 8, 1, 1, 8},
		{"two members, checks", 8, 1, 2, 7},
		{"twenty members, checks", 8, 1, 20, 4},
		{"cap of one", 1, 2, 5, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(tc.cap, tc.perOther)
			var s *Share
			for range tc.peers {
				s = p.Join()
			}
			if got := s.Limit(); got != tc.want {
				t.Fatalf("limit %d, want %d", got, tc.want)
			}
		})
	}
}

// TestShareBounds: a member at its limit is refused, and its waiting
// calls are bounded, while another member still takes places; leaving
// gives the reserve back.
func TestShareBounds(t *testing.T) {
	t.Parallel()
	p := NewPool(4, 2)
	a, b := p.Join(), p.Join()
	for range 2 {
		if _, ok := a.TryAcquire(); !ok {
			t.Fatal("a member under its limit was refused")
		}
	}
	if _, ok := a.TryAcquire(); ok {
		t.Fatal("a member past its limit took a place")
	}
	ctx, cancel := context.WithCancel(context.Background())
	granted := make(chan Outcome, 2)
	for range 2 {
		go func() { _, o := a.Acquire(ctx); granted <- o }()
	}
	for a.waitingNow() != 2 {
		waitTurn()
	}
	if _, o := a.Acquire(ctx); o != ShareQueueFull {
		t.Fatalf("a third waiting call of one member: %v, want ShareQueueFull", o)
	}
	releaseB, ok := b.TryAcquire()
	if !ok {
		t.Fatal("the other member was refused while one is at its limit")
	}
	releaseB()
	b.Leave()
	for range 2 {
		if o := <-granted; o != Taken {
			t.Fatalf("a waiting call after the other member left: %v, want Taken", o)
		}
	}
	cancel()
}

// TestCanceledWaiterLeavesNoPlace: a call whose context ends while it
// waits takes no place, and the place it waited for goes to the next.
func TestCanceledWaiterLeavesNoPlace(t *testing.T) {
	t.Parallel()
	p := NewPool(1, 2)
	s := p.Join()
	release, ok := s.TryAcquire()
	if !ok {
		t.Fatal("an empty pool refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, o := s.Acquire(ctx); o != Canceled {
		t.Fatalf("a canceled wait: %v, want Canceled", o)
	}
	if _, o := s.Acquire(ctx); o != Canceled {
		t.Fatalf("the pool's queue kept a canceled waiter: %v", o)
	}
	release()
	if _, ok := s.TryAcquire(); !ok {
		t.Fatal("the place was not free after its release")
	}
}
