// SPDX-License-Identifier: Apache-2.0

package fairshare

import (
	"context"
	"slices"
	"testing"
)

// stage holds places and queues calls of named callers on the shares of
// one pool, in an order the test decides; a queued call is known by its
// index, in arrival order. Nothing is timed: the test goes on once a call
// is counted as waiting, and reads the ends of calls from a channel.
type stage struct {
	t       *testing.T
	ctx     context.Context
	held    map[string][]func() // caller -> releases of its places
	results chan result         // the end of every call started by wait
	pending []result            // ends read while waiting for another
	callers []string            // the caller of each call started by wait
}

type result struct {
	index   int
	outcome Outcome
	release func()
}

func newStage(t *testing.T) *stage {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &stage{t: t, ctx: ctx, held: map[string][]func(){}, results: make(chan result, 256)}
}

// hold takes a place of s for each caller, at once.
func (st *stage) hold(s *Share, callers ...string) {
	st.t.Helper()
	for _, c := range callers {
		release, ok := s.TryAcquireFor(c)
		if !ok {
			st.t.Fatalf("a place for %s was not free", c)
		}
		st.held[c] = append(st.held[c], release)
	}
}

// wait starts a call of caller on s and returns once it waits (Taken),
// or with the outcome it ended with at once.
func (st *stage) wait(s *Share, caller string) Outcome {
	st.t.Helper()
	before := s.waitingOf(caller)
	index := len(st.callers)
	st.callers = append(st.callers, caller)
	go func() {
		release, o := s.AcquireFor(st.ctx, caller)
		st.results <- result{index, o, release}
	}()
	for s.waitingOf(caller) == before {
		select {
		case r := <-st.results:
			if r.index == index {
				if r.outcome == Taken {
					st.t.Fatalf("call %d of %s took a place at once", index, caller)
				}
				return r.outcome
			}
			st.pending = append(st.pending, r)
		default:
			waitTurn()
		}
	}
	return Taken
}

// next is the next end of a call started by wait.
func (st *stage) next() result {
	if len(st.pending) > 0 {
		r := st.pending[0]
		st.pending = st.pending[1:]
		return r
	}
	return <-st.results
}

// release gives back one place of caller, and returns the index of the
// waiting call that got it.
func (st *stage) release(caller string) int {
	st.t.Helper()
	n := len(st.held[caller])
	if n == 0 {
		st.t.Fatalf("%s holds no place", caller)
	}
	release := st.held[caller][n-1]
	st.held[caller] = st.held[caller][:n-1]
	release()
	r := st.next()
	if r.outcome != Taken {
		st.t.Fatalf("call %d of %s ended %v, want Taken", r.index, st.callers[r.index], r.outcome)
	}
	who := st.callers[r.index]
	st.held[who] = append(st.held[who], r.release)
	return r.index
}

// TestFreedPlaceGoesToTheCallerHoldingFewest: a place freed while calls
// wait goes to the call whose caller holds the fewest places of that
// member, the earliest on a tie; one caller alone is served in arrival
// order.
func TestFreedPlaceGoesToTheCallerHoldingFewest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		cap      int
		held     []string // places taken, in order
		waiting  []string // calls queued, in arrival order
		releases []string // whose place is given back, in order
		want     []int    // the call granted after each release
	}{
		{"a caller with no place goes before a flood", 3, []string{"a", "a", "a"}, []string{"a", "a", "v"}, []string{"a"}, []int{2}},
		{"fewest in use, not arrival", 4, []string{"a", "a", "a", "b"}, []string{"a", "b"}, []string{"a", "a"}, []int{1, 0}},
		{"ties in arrival order", 2, []string{"a", "b"}, []string{"d", "c"}, []string{"a", "b"}, []int{0, 1}},
		{"one caller alone: arrival order", 3, []string{"a", "a", "a"}, []string{"a", "a", "a"}, []string{"a", "a", "a"}, []int{0, 1, 2}},
		{"three floods and one victim", 7, []string{"a", "a", "a", "b", "b", "c", "c"}, []string{"a", "b", "c", "a", "b", "c", "v"}, []string{"a", "b", "c"}, []int{6, 1, 2}},
		{"the gateway's own calls are a caller too", 2, []string{"a", "a"}, []string{"a", ""}, []string{"a"}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := newStage(t)
			s := NewPool(tc.cap, 2).Join()
			st.hold(s, tc.held...)
			for _, c := range tc.waiting {
				if o := st.wait(s, c); o != Taken {
					t.Fatalf("a call of %s was refused: %v", c, o)
				}
			}
			var got []int
			for _, c := range tc.releases {
				got = append(got, st.release(c))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("granted %v, want %v (calls %v)", got, tc.want, tc.waiting)
			}
		})
	}
}

// TestFullQueueRefusesTheCallerHoldingMost: when the queue is full (one
// member's share of it, or the pool's), a call of a caller holding more
// than one place fewer than another (in use and waiting) takes the
// waiting place of that other's newest call, which ends Displaced;
// otherwise the newcomer is refused. A member's full share of the queue
// displaces only its own calls; the pool's full queue, any member's.
func TestFullQueueRefusesTheCallerHoldingMost(t *testing.T) {
	t.Parallel()
	type step struct {
		member int // which member's share
		caller string
		want   Outcome // Taken: it waits
	}
	for _, tc := range []struct {
		name      string
		cap       int
		held      [][]string // the places each member holds: every place of the pool
		steps     []step
		displaced []int // the calls displaced, in order
		granted   int   // after releasing one of held[0][0]'s places: the call granted
	}{
		{"the victim displaces the flood's newest", 2, [][]string{{"a", "a"}},
			[]step{{0, "a", Taken}, {0, "a", Taken}, {0, "v", Taken}}, []int{1}, 2},
		{"a caller holding as much as the others is refused", 2, [][]string{{"a", "b"}},
			[]step{{0, "a", Taken}, {0, "b", Taken}, {0, "a", PoolQueueFull}}, nil, 0},
		{"one place fewer is not enough", 4, [][]string{{"a", "a", "b", "b"}},
			[]step{{0, "a", Taken}, {0, "b", Taken}, {0, "c", Taken}, {0, "c", Taken}, {0, "c", PoolQueueFull}}, nil, 2},
		{"a caller with nothing displaces one with two; ties in arrival order", 2, [][]string{{"a", "b"}},
			[]step{{0, "a", Taken}, {0, "b", Taken}, {0, "c", Taken}}, []int{1}, 0},
		{"a member's share of the queue: its own flood is displaced", 4, [][]string{{"a", "a"}, {"o", "o"}},
			[]step{{0, "a", Taken}, {0, "a", Taken}, {0, "a", ShareQueueFull}, {0, "v", Taken}}, []int{1}, 3},
		{"a member's share of the queue: another member's flood is not", 4, [][]string{{"a", "a"}, {"o", "o"}},
			[]step{{0, "a", Taken}, {0, "a", Taken}, {1, "w", Taken}, {1, "w", Taken}, {1, "w", PoolQueueFull}}, nil, 0},
		{"the pool's queue: another member's flood is displaced", 6, [][]string{{"a", "a", "a"}, {"o", "o", "o"}, {}},
			[]step{{0, "a", Taken}, {0, "a", Taken}, {0, "a", Taken}, {1, "w", Taken}, {1, "w", Taken}, {1, "w", Taken}, {2, "v", Taken}}, []int{2}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := newStage(t)
			p := NewPool(tc.cap, 2)
			shares := make([]*Share, len(tc.held))
			for i := range shares {
				shares[i] = p.Join()
			}
			for i, held := range tc.held {
				st.hold(shares[i], held...)
			}
			for i, s := range tc.steps {
				if o := st.wait(shares[s.member], s.caller); o != s.want {
					t.Fatalf("step %d (%s on member %d): %v, want %v", i, s.caller, s.member, o, s.want)
				}
			}
			var displaced []int
			for range tc.displaced {
				r := st.next()
				if r.outcome != Displaced {
					t.Fatalf("call %d ended %v, want Displaced", r.index, r.outcome)
				}
				displaced = append(displaced, r.index)
			}
			if !slices.Equal(displaced, tc.displaced) {
				t.Fatalf("displaced %v, want %v", displaced, tc.displaced)
			}
			if got := st.release(tc.held[0][0]); got != tc.granted {
				t.Fatalf("after a release, call %d got the place, want %d", got, tc.granted)
			}
		})
	}
}

// TestCallersAreForgotten: a member keeps counts only of callers holding
// or waiting for places.
func TestCallersAreForgotten(t *testing.T) {
	t.Parallel()
	st := newStage(t)
	s := NewPool(1, 2).Join()
	st.hold(s, "a")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Outcome)
	go func() { _, o := s.AcquireFor(ctx, "b"); done <- o }()
	for s.waitingOf("b") == 0 {
		waitTurn()
	}
	cancel()
	if o := <-done; o != Canceled {
		t.Fatalf("a canceled wait: %v", o)
	}
	if n := s.callersKept(); n != 1 {
		t.Fatalf("%d callers kept with one holding a place, want 1", n)
	}
	st.held["a"][0]()
	st.held["a"][0]() // a second call of a release gives nothing back
	if n := s.callersKept(); n != 0 {
		t.Fatalf("%d callers kept with none holding a place, want 0", n)
	}
	if _, ok := s.TryAcquireFor("c"); !ok {
		t.Fatal("the place was not free after its release")
	}
}
