// SPDX-License-Identifier: Apache-2.0

// Package fairshare is a semaphore shared by the Dagu servers one gateway
// fronts: a process-wide cap on places in use (and on places waiting), of
// which one server may hold at most the cap less a reserve kept for the
// others, so that a slow server cannot take every place.
//
// Within those bounds the places are fair between callers (whoever a
// request is made for, named by the caller; "" is one caller like any
// other): a freed place goes to the waiting request whose caller holds
// the fewest places of that server, the earliest of them on a tie; and
// when the queue is full, a request of a caller that holds fewer places
// (in use and waiting) than another takes the waiting place of that
// other's newest request, which is refused instead. So one caller's flood
// costs only that caller: a caller with one request in flight gets the
// next free place ahead of a caller with many, and is not refused because
// others fill the queue.
package fairshare

import (
	"context"
	"slices"
	"sync"
)

// Pool is the process-wide cap. The reserve kept for the other members is
// min(cap/2, perOther × (members − 1)): with one member it is nothing, and
// a member always gets at least half of the cap.
type Pool struct {
	mu       sync.Mutex
	cap      int
	perOther int
	members  int
	inUse    int
	waiters  []*waiter // in arrival order
}

// Share is one member's part of a Pool; its methods are safe for
// concurrent use.
type Share struct {
	pool    *Pool
	inUse   int // guarded by pool.mu
	waiting int // guarded by pool.mu
	left    bool
	// callers counts, per caller, its places in use and its waiting
	// requests; a caller holding neither is forgotten.
	callers map[string]*holding // guarded by pool.mu
}

// holding is what one caller holds of a share.
type holding struct{ inUse, waiting int }

type waiter struct {
	share  *Share
	caller string
	// done is closed when the waiter is granted (outcome Taken) or
	// displaced (outcome Displaced); outcome is set before.
	done    chan struct{}
	outcome Outcome
}

// NewPool is a cap of n places (at least 1) whose reserve grows by
// perOther places per other member.
func NewPool(n, perOther int) *Pool {
	return &Pool{cap: max(n, 1), perOther: perOther}
}

// Cap is the process-wide number of places.
func (p *Pool) Cap() int { return p.cap }

// Join adds a member; Leave gives its reserve back to the others.
func (p *Pool) Join() *Share {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.members++
	return &Share{pool: p, callers: map[string]*holding{}}
}

// Leave removes the member from the count of members (once); places it
// still holds are given back by their release.
func (s *Share) Leave() {
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if !s.left {
		s.left = true
		p.members--
		p.grant()
	}
}

// Limit is how many places one member may hold now, and how many of its
// calls may wait.
func (s *Share) Limit() int {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return s.pool.limit()
}

func (p *Pool) limit() int {
	return p.cap - min(p.cap/2, p.perOther*max(p.members-1, 0))
}

// TryAcquire is TryAcquireFor of the caller "".
func (s *Share) TryAcquire() (release func(), ok bool) { return s.TryAcquireFor("") }

// TryAcquireFor takes a place for caller if one is free now and the
// member is under its limit. No waiter is ever passed over: after every
// change, a place free to a waiter's member has been handed to it.
func (s *Share) TryAcquireFor(caller string) (release func(), ok bool) {
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.fits(s) {
		return nil, false
	}
	p.take(s, caller)
	return s.releaser(caller), true
}

// Outcome says why Acquire returned without a place.
type Outcome int

// The outcomes of Acquire.
const (
	Taken          Outcome = iota // a place is held: call release
	PoolQueueFull                 // as many calls as the cap already wait
	ShareQueueFull                // as many of the member's calls as its limit already wait
	Canceled                      // ctx ended while waiting
	// Displaced: the call waited, and a call of a caller holding fewer
	// places took its waiting place when the queue was full.
	Displaced
)

// Acquire is AcquireFor of the caller "".
func (s *Share) Acquire(ctx context.Context) (release func(), outcome Outcome) {
	return s.AcquireFor(ctx, "")
}

// AcquireFor takes a place for caller, waiting within ctx while none is
// free to the member. When the waiting places of the pool, or the
// member's share of them, are all taken, it takes the waiting place of
// the caller holding the most (its newest call is displaced) if that
// caller holds more than one place more than caller; else it is refused
// at once.
func (s *Share) AcquireFor(ctx context.Context, caller string) (release func(), outcome Outcome) {
	p := s.pool
	p.mu.Lock()
	if p.fits(s) {
		p.take(s, caller)
		p.mu.Unlock()
		return s.releaser(caller), Taken
	}
	for {
		shareFull, poolFull := s.waiting >= p.limit(), len(p.waiters) >= p.cap
		if !shareFull && !poolFull {
			break
		}
		// A full share of the queue displaces only the member's own
		// calls; the refusal names the pool's queue when it is full too.
		within, full := s, ShareQueueFull
		if !shareFull {
			within = nil
		}
		if poolFull {
			full = PoolQueueFull
		}
		if !p.displace(within, s.held(caller)) {
			p.mu.Unlock()
			return nil, full
		}
	}
	w := &waiter{share: s, caller: caller, done: make(chan struct{})}
	p.waiters = append(p.waiters, w)
	s.waiting++
	s.count(caller).waiting++
	p.mu.Unlock()
	select {
	case <-w.done:
		if w.outcome == Taken {
			return s.releaser(caller), Taken
		}
		return nil, w.outcome
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.done:
		if w.outcome == Taken { // granted as ctx ended: give it back
			p.give(s, caller)
		}
	default:
		p.remove(w)
	}
	return nil, Canceled
}

// releaser gives back one place of caller, once.
func (s *Share) releaser(caller string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			p := s.pool
			p.mu.Lock()
			defer p.mu.Unlock()
			p.give(s, caller)
		})
	}
}

// count is caller's holding, made when it holds nothing yet.
func (s *Share) count(caller string) *holding {
	h := s.callers[caller]
	if h == nil {
		h = &holding{}
		s.callers[caller] = h
	}
	return h
}

// held is how many places caller holds of the share, in use and waiting.
func (s *Share) held(caller string) int {
	if h := s.callers[caller]; h != nil {
		return h.inUse + h.waiting
	}
	return 0
}

// forget drops caller's holding once it holds nothing.
func (s *Share) forget(caller string) {
	if h := s.callers[caller]; h != nil && h.inUse == 0 && h.waiting == 0 {
		delete(s.callers, caller)
	}
}

func (p *Pool) fits(s *Share) bool { return p.inUse < p.cap && s.inUse < p.limit() }

func (p *Pool) take(s *Share, caller string) {
	p.inUse++
	s.inUse++
	s.count(caller).inUse++
}

func (p *Pool) give(s *Share, caller string) {
	p.inUse--
	s.inUse--
	s.count(caller).inUse--
	s.forget(caller)
	p.grant()
}

// grant hands free places to waiters, each to the waiter whose caller
// holds the fewest places of its member, the earliest on a tie, passing
// over those whose member is at its limit (they do not hold up the
// others).
func (p *Pool) grant() {
	for p.inUse < p.cap {
		best, fewest := -1, 0
		for i, w := range p.waiters {
			if !p.fits(w.share) {
				continue
			}
			n := w.share.callers[w.caller].inUse
			if best < 0 || n < fewest {
				best, fewest = i, n
			}
			if n == 0 {
				break // none holds fewer, and this one came first
			}
		}
		if best < 0 {
			return
		}
		w := p.waiters[best]
		p.unqueue(best)
		p.take(w.share, w.caller)
		w.outcome = Taken
		close(w.done)
	}
}

// displace refuses the newest waiting call of the caller holding the most
// places (in use and waiting) of its member, among the calls waiting
// for within (nil: for any member), when that caller holds more than one
// place more than a newcomer holding has; it reports whether it did.
func (p *Pool) displace(within *Share, has int) bool {
	victim, most := -1, 0
	for i, w := range p.waiters {
		if within != nil && w.share != within {
			continue
		}
		if n := w.share.held(w.caller); victim < 0 || n >= most {
			victim, most = i, n // >=: the newest of the caller holding the most
		}
	}
	if victim < 0 || most <= has+1 {
		return false
	}
	w := p.waiters[victim]
	p.unqueue(victim)
	w.outcome = Displaced
	close(w.done)
	return true
}

// unqueue takes the i-th waiter out of the queue and its counts.
func (p *Pool) unqueue(i int) {
	w := p.waiters[i]
	p.waiters = slices.Delete(p.waiters, i, i+1)
	w.share.waiting--
	w.share.callers[w.caller].waiting--
	w.share.forget(w.caller)
}

func (p *Pool) remove(w *waiter) {
	if i := slices.Index(p.waiters, w); i >= 0 {
		p.unqueue(i)
	}
}
