// SPDX-License-Identifier: Apache-2.0

package fairshare

import "runtime"

// waitingNow is how many of the member's calls wait.
func (s *Share) waitingNow() int {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return s.waiting
}

// waitTurn lets the waiting goroutines run.
func waitTurn() { runtime.Gosched() }
