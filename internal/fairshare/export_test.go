// SPDX-License-Identifier: Apache-2.0

package fairshare

import "runtime"

// waitingNow is how many of the member's calls wait.
func (s *Share) waitingNow() int {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return s.waiting
}

// waitingOf is how many of caller's calls wait for the member.
func (s *Share) waitingOf(caller string) int {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	if h := s.callers[caller]; h != nil {
		return h.waiting
	}
	return 0
}

// callersKept is how many callers the member keeps counts of.
func (s *Share) callersKept() int {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return len(s.callers)
}

// waitTurn lets the waiting goroutines run.
func waitTurn() { runtime.Gosched() }
