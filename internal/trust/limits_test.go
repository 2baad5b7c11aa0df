// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// as is a request context of the caller the front door named.
func as(caller string, trust reqctx.Trust) context.Context {
	return reqctx.With(context.Background(), reqctx.Info{Caller: caller, Trust: trust})
}

// newLimits is NewLimits on a hand-moved clock.
func newLimits(t *testing.T, perSecond float64, burst int, shared SharedRateLimiter) (*Limits, *testkit.Clock) {
	t.Helper()
	clk := testkit.NewClock(time.Unix(1_000_000, 0))
	l, err := NewLimits(perSecond, burst, shared, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	return l, clk
}

// admitted counts how many of n reads of ctx's caller are admitted.
func admitted(l *Limits, ctx context.Context, n int) int {
	got := 0
	for range n {
		if _, ok := l.Admit(ctx); ok {
			got++
		}
	}
	return got
}

// TestEachCallerHasItsOwnBucket: a caller gets its burst, then a wait; the
// bucket refills with time; another caller has its own. Twelve logins of
// one user are one caller (the front door names them by the identity Dagu
// gives: issue 28 #5, 120 reads in 10 s instead of 10).
func TestEachCallerHasItsOwnBucket(t *testing.T) {
	t.Parallel()
	l, clk := newLimits(t, 1, 2, nil)
	alice := as("dagu:user-7", reqctx.TrustVerified)
	if got := admitted(l, alice, 5); got != 2 {
		t.Fatalf("admitted %d of 5, want the burst of 2", got)
	}
	if wait, ok := l.Admit(alice); ok || wait != time.Second {
		t.Fatalf("past the burst: ok %v, wait %s, want a second", ok, wait)
	}
	if got := admitted(l, as("dagu:user-8", reqctx.TrustVerified), 2); got != 2 {
		t.Errorf("another caller admitted %d of 2", got)
	}
	total := 0
	for range 10 {
		clk.Advance(time.Second)
		for range 12 { // one read per login
			total += admitted(l, alice, 1)
		}
	}
	if total != 10 {
		t.Errorf("12 logins of one user over 10 s: %d reads, want 10", total)
	}
}

// TestStrangersCannotRefillAVerifiedBucket: unverified callers from ever
// new addresses fill their own pool of buckets, not the verified callers':
// a verified caller's empty bucket stays empty.
func TestStrangersCannotRefillAVerifiedBucket(t *testing.T) {
	t.Parallel()
	l, _ := newLimits(t, 0.001, 1, nil)
	key := as("key:0123abcd", reqctx.TrustVerified)
	if got := admitted(l, key, 2); got != 1 {
		t.Fatalf("admitted %d of 2, want 1", got)
	}
	for i := range 2 * maxLimitedCallers {
		l.Admit(as(fmt.Sprintf("unverified:10.%d.%d.1", i/250, i%250), reqctx.TrustUnchecked))
	}
	if _, ok := l.Admit(key); ok {
		t.Error("strangers from many addresses refilled a verified caller's bucket")
	}
}

// fakeSharedLimit is an in-memory SharedRateLimiter whose answers the test
// sets: the shared state's own behaviour is tested against a real Redis in
// internal/sharedstate.
type fakeSharedLimit struct {
	allowed bool
	wait    time.Duration
	err     error
	callers []string
}

func (f *fakeSharedLimit) Allow(_ context.Context, caller string) (bool, time.Duration, error) {
	f.callers = append(f.callers, caller)
	return f.allowed, f.wait, f.err
}

// TestSharedRateLimitDecidesFirst: the cluster-wide limit decides while it
// can; when it cannot, the replica's own bucket does.
func TestSharedRateLimitDecidesFirst(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		shared   fakeSharedLimit
		admitted int // of 4 reads with a local burst of 2
	}{
		{"shared admits beyond the local burst", fakeSharedLimit{allowed: true}, 4},
		{"shared refuses within the local burst", fakeSharedLimit{wait: 1500 * time.Millisecond}, 0},
		{"shared unavailable: the local bucket decides", fakeSharedLimit{err: errors.New("shared state unavailable")}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			shared := tt.shared
			l, _ := newLimits(t, 1, 2, &shared)
			if got := admitted(l, as("alice", reqctx.TrustVerified), 4); got != tt.admitted {
				t.Fatalf("admitted %d of 4, want %d", got, tt.admitted)
			}
			if len(shared.callers) != 4 || shared.callers[0] != "alice" {
				t.Fatalf("the shared limit saw callers %q", shared.callers)
			}
		})
	}
}

// TestNoRateLimit: a rate of 0 is no limit.
func TestNoRateLimit(t *testing.T) {
	t.Parallel()
	l, err := NewLimits(0, 0, nil, nil)
	if err != nil || l != nil {
		t.Fatalf("NewLimits(0) = %v, %v", l, err)
	}
	if _, ok := l.Admit(as("alice", reqctx.TrustVerified)); !ok {
		t.Error("no limit refused a read")
	}
}
