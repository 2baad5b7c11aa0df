// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestDecryptionKeepsTheSlotUntilItEnds stops a read while excelize
// decrypts its workbook (which it cannot interrupt): the read answers at
// once, and its slot stays taken until the decryption has ended, so no
// more than Concurrency reads' work ever runs.
func TestDecryptionKeepsTheSlotUntilItEnds(t *testing.T) {
	t.Parallel()
	path := encryptedBook(t, "pw")
	p := newProfiler(t, Config{Concurrency: 1})
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	p.duringDecrypt = func() {
		cancel()
		<-release
	}
	if _, err := p.Profile(ctx, path, "pw"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if p.slots.TryAcquire(1) {
		t.Fatal("the slot was given back while the decryption still ran")
	}
	close(release)
	wait, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	if _, err := p.slots.acquire(wait, ""); err != nil {
		t.Fatalf("the slot was not given back after the decryption ended: %v", err)
	}
	p.slots.release("")
}

// otherReads is the caller of the reads tests stand for with TryAcquire.
const otherReads = "other reads"

// TryAcquire takes n slots for otherReads, all or none, when they are
// free: tests stand for reads in progress with it.
func (s *slots) TryAcquire(n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inUse+int(n) > s.n {
		return false
	}
	for range n {
		s.take(otherReads)
	}
	return true
}

// Release gives back n slots of otherReads.
func (s *slots) Release(n int64) {
	for range n {
		s.release(otherReads)
	}
}

// slotStep is one step of a slot scenario: a read of caller asks for a
// slot (ask), or read done's slot is given back.
type slotStep struct {
	ask  string // the caller of a new read; "" with done
	done int    // the read (numbered from 0 in order of asking) whose slot is given back
	// holding is, after the step, the reads that hold a slot.
	holding []int
}

// TestSlotsGoToTheCallerHoldingFewest plays scenarios of reads asking for
// slots and giving them back, and checks after each step which reads
// hold one: a freed slot goes to the waiting caller that holds the
// fewest (ties: the read that asked first), a caller alone uses every
// slot, and one caller's waiting reads never pass another's.
func TestSlotsGoToTheCallerHoldingFewest(t *testing.T) {
	t.Parallel()
	ask := func(caller string, holding ...int) slotStep { return slotStep{ask: caller, holding: holding} }
	done := func(read int, holding ...int) slotStep { return slotStep{done: read, holding: holding} }
	for _, tc := range []struct {
		name  string
		slots int
		steps []slotStep
	}{
		{"a caller alone uses every slot", 2, []slotStep{
			ask("a", 0), ask("a", 0, 1), ask("a", 0, 1), done(0, 1, 2),
		}},
		{"the issue's attack: one caller's surplus waits behind another's read", 2, []slotStep{
			ask("a", 0), ask("a", 0, 1), ask("a", 0, 1), ask("a", 0, 1), ask("b", 0, 1),
			done(0, 1, 4), // b holds none: its read goes before a's two that came first
			done(1, 2, 4), ask("b", 2, 4), ask("b", 2, 4),
			done(4, 2, 5), // b holds none
			done(2, 3, 5), // a holds none
		}},
		{"a caller over its part gets no slot while another waits", 2, []slotStep{
			ask("a", 0), ask("b", 0, 1), ask("a", 0, 1), ask("b", 0, 1),
			done(1, 0, 3), // b's read, not a's that came first
			done(0, 2, 3),
		}},
		{"ties go to the read that came first", 3, []slotStep{
			ask("a", 0), ask("b", 0, 1), ask("c", 0, 1, 2), ask("c", 0, 1, 2), ask("b", 0, 1, 2), ask("a", 0, 1, 2),
			done(2, 0, 1, 3), // c holds none now, and asked before b and a
			done(0, 1, 3, 5), // a holds none
			done(3, 1, 4, 5), // a, b and c hold one, none, one: b
		}},
		{"the fewest holding among three callers", 4, []slotStep{
			ask("a", 0), ask("a", 0, 1), ask("a", 0, 1, 2), ask("b", 0, 1, 2, 3),
			ask("a", 0, 1, 2, 3), ask("c", 0, 1, 2, 3), ask("b", 0, 1, 2, 3),
			done(0, 1, 2, 3, 5), // c holds none
			done(1, 2, 3, 4, 5), // a, b and c hold one: a was served before b
		}},
		{"one slot goes round the callers", 1, []slotStep{
			ask("a", 0), ask("a", 0), ask("a", 0), ask("b", 0), ask("b", 0),
			done(0, 3), // a and b hold none: b was never served
			done(3, 1), // a was served before b
			done(1, 4), done(4, 2),
		}},
		{"callers never served go in arrival order", 2, []slotStep{
			ask("a", 0), ask("b", 0, 1), ask("d", 0, 1), ask("c", 0, 1),
			done(0, 1, 2), done(1, 2, 3),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSlots(tc.slots)
			var reads []*slotWaiter
			released := map[int]bool{}
			for i, step := range tc.steps {
				if step.ask != "" {
					reads = append(reads, s.enqueue(step.ask))
				} else {
					if released[step.done] || !isClosed(reads[step.done].granted) {
						t.Fatalf("step %d: read %d holds no slot to give back", i, step.done)
					}
					released[step.done] = true
					s.release(reads[step.done].caller)
				}
				var holding []int
				for r, w := range reads {
					if isClosed(w.granted) && !released[r] {
						holding = append(holding, r)
					}
				}
				if !slices.Equal(holding, step.holding) {
					t.Fatalf("step %d: reads %v hold a slot, want %v", i, holding, step.holding)
				}
			}
		})
	}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// TestCallerOf names the caller a read's slot counts against.
func TestCallerOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"outside a request", context.Background(), ""},
		{"a verified caller", reqctx.With(context.Background(), reqctx.Info{Caller: "ops", Trust: reqctx.TrustVerified}), "ops"},
		{"stdio", reqctx.With(context.Background(), reqctx.Info{Caller: "local"}), "local"},
		{"unchecked callers together", reqctx.With(context.Background(), reqctx.Info{Caller: "unverified:10.0.0.1", Trust: reqctx.TrustUnchecked}), unverifiedCaller},
		{"refused callers together", reqctx.With(context.Background(), reqctx.Info{Caller: "key:ab", Trust: reqctx.TrustRefused}), unverifiedCaller},
	} {
		if got := callerOf(tc.ctx); got != tc.want {
			t.Errorf("%s: caller %q, want %q", tc.name, got, tc.want)
		}
	}
}

// waitForWaiters returns once n reads wait for a slot.
func waitForWaiters(s *slots, n int) {
	for {
		s.mu.Lock()
		k := len(s.waiters)
		s.mu.Unlock()
		if k == n {
			return
		}
		runtime.Gosched()
	}
}

// TestOneCallersReadsCostOnlyThatCaller is the attack on the
// profiler: caller a's reads hold both slots and a third of a's waits;
// caller b's read, which came after it, gets the first slot freed and
// runs, while a's surplus waits; a read of a's that cannot wait is
// refused as a's own doing, with the wait to take.
func TestOneCallersReadsCostOnlyThatCaller(t *testing.T) {
	t.Parallel()
	path := smallBook(t, "small.xlsx")
	p := newProfiler(t, Config{Concurrency: 2})
	as := func(ctx context.Context, caller string) context.Context {
		return reqctx.With(ctx, reqctx.Info{Caller: caller, Trust: reqctx.TrustVerified})
	}
	for range 2 { // a's reads in progress
		if !isClosed(p.slots.enqueue("a").granted) {
			t.Fatal("slots are not free")
		}
	}
	profile := func(ctx context.Context, caller string) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := p.Profile(as(ctx, caller), path, "")
			done <- err
		}()
		return done
	}
	aSurplus := profile(context.Background(), "a")
	waitForWaiters(p.slots, 1)
	b := profile(context.Background(), "b")
	waitForWaiters(p.slots, 2)

	// Long enough that the read reaches the wait before its stop time on a
	// loaded machine (see TestReadsWaitForASlot).
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := p.Profile(as(ctx, "a"), path, "")
	wantUnavailable(t, err, "your workbook reads in progress hold your part of the gateway's 2 workbook slots")
	if f := (*model.Failure)(nil); !errors.As(err, &f) || f.RetryAfter != busyRetryAfter {
		t.Errorf("failure %+v, want retry after %v", f, busyRetryAfter)
	}

	p.slots.release("a")
	p.slots.mu.Lock()
	waiting := slices.Clone(p.slots.waiters)
	p.slots.mu.Unlock()
	if len(waiting) != 1 || waiting[0].caller != "a" {
		t.Fatalf("after a slot freed, %d reads wait (first %+v), want a's surplus alone", len(waiting), waiting)
	}
	if err := <-b; err != nil {
		t.Fatalf("b's read after a slot freed: %v", err)
	}
	p.slots.release("a")
	if err := <-aSurplus; err != nil {
		t.Fatalf("a's surplus read after its reads ended: %v", err)
	}
}
