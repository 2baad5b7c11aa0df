// SPDX-License-Identifier: Apache-2.0

// Package fairshare is a semaphore shared by the Dagu servers one gateway
// fronts: a process-wide cap on places in use (and on places waiting), of
// which one server may hold at most the cap less a reserve kept for the
// others, so that a slow server cannot take every place.
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
}

type waiter struct {
	share   *Share
	granted chan struct{}
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
	return &Share{pool: p}
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

// TryAcquire takes a place if one is free now and the member is under its
// limit. No waiter is ever passed over: after every change, a place free
// to a waiter's member has been handed to it.
func (s *Share) TryAcquire() (release func(), ok bool) {
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.fits(s) {
		return nil, false
	}
	p.take(s)
	return s.release, true
}

// Outcome says why Acquire returned without a place.
type Outcome int

// The outcomes of Acquire.
const (
	Taken          Outcome = iota // a place is held: call release
	PoolQueueFull                 // as many calls as the cap already wait
	ShareQueueFull                // as many of the member's calls as its limit already wait
	Canceled                      // ctx ended while waiting
)

// Acquire takes a place, waiting within ctx while none is free to the
// member; it refuses at once when the waiting places of the pool, or the
// member's share of them, are all taken.
func (s *Share) Acquire(ctx context.Context) (release func(), outcome Outcome) {
	p := s.pool
	p.mu.Lock()
	if p.fits(s) {
		p.take(s)
		p.mu.Unlock()
		return s.release, Taken
	}
	switch {
	case len(p.waiters) >= p.cap:
		p.mu.Unlock()
		return nil, PoolQueueFull
	case s.waiting >= p.limit():
		p.mu.Unlock()
		return nil, ShareQueueFull
	}
	w := &waiter{share: s, granted: make(chan struct{})}
	p.waiters = append(p.waiters, w)
	s.waiting++
	p.mu.Unlock()
	select {
	case <-w.granted:
		return s.release, Taken
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.granted: // granted as ctx ended: give it back
		p.give(s)
	default:
		p.remove(w)
	}
	return nil, Canceled
}

func (s *Share) release() {
	p := s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	p.give(s)
}

func (p *Pool) fits(s *Share) bool { return p.inUse < p.cap && s.inUse < p.limit() }

func (p *Pool) take(s *Share) {
	p.inUse++
	s.inUse++
}

func (p *Pool) give(s *Share) {
	p.inUse--
	s.inUse--
	p.grant()
}

// grant hands free places to the waiters in arrival order, passing over
// those whose member is at its limit (they do not hold up the others).
func (p *Pool) grant() {
	kept := p.waiters[:0]
	for _, w := range p.waiters {
		if p.fits(w.share) {
			p.take(w.share)
			w.share.waiting--
			close(w.granted)
			continue
		}
		kept = append(kept, w)
	}
	clear(p.waiters[len(kept):])
	p.waiters = kept
}

func (p *Pool) remove(w *waiter) {
	for i, o := range p.waiters {
		if o == w {
			p.waiters = slices.Delete(p.waiters, i, i+1)
			w.share.waiting--
			return
		}
	}
}
