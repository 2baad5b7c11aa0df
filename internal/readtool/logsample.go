// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"sync/atomic"

	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// The read log lines of callers the front door did not verify (a key Dagu
// refused or has not checked) are bounded per second, as the front door's
// access lines of such requests are: a stranger must not decide how much
// the gateway writes to its log. Verified callers and stdio (no trust
// decision) are always logged.
const (
	unverifiedReadLinesPerSecond = 20
	unverifiedReadLinesBurst     = 100
)

// readLogSampler admits the read lines of unverified callers within a
// token bucket and counts the ones it drops, reported on the next line it
// admits.
type readLogSampler struct {
	limiter *rate.Limiter
	dropped atomic.Int64
}

func newReadLogSampler() *readLogSampler {
	return &readLogSampler{limiter: rate.NewLimiter(unverifiedReadLinesPerSecond, unverifiedReadLinesBurst)}
}

// admit reports whether the read line of a caller with trust may be
// written, and how many were dropped since the last one that was.
func (s *readLogSampler) admit(trust reqctx.Trust) (ok bool, dropped int64) {
	if trust == "" || trust == reqctx.TrustVerified {
		return true, 0
	}
	if !s.limiter.Allow() {
		s.dropped.Add(1)
		return false, 0
	}
	return true, s.dropped.Swap(0)
}
