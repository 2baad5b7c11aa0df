// SPDX-License-Identifier: Apache-2.0

// Package logsample bounds the log lines of callers who never proved who
// they are. A stranger can send requests as fast as the network allows,
// and one line each would let it fill the disk or the log pipeline; a
// verified caller's lines are never dropped. The front door's access log
// and the read tool's read log each keep one Sampler. It imports no
// gateway package.
package logsample

import (
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// The bound on unverified callers' lines, per Sampler.
const (
	// LinesPerSecond is the rate the bucket refills at.
	LinesPerSecond = 20
	// Burst is the bucket's size.
	Burst = 100
)

// Sampler lets through a bounded number of unverified callers' lines and
// counts the ones it drops, reported on the next line it lets through.
type Sampler struct {
	limiter *rate.Limiter
	now     func() time.Time
	dropped atomic.Int64
}

// New returns a Sampler reading the time from now (time.Now when nil).
func New(now func() time.Time) *Sampler {
	if now == nil {
		now = time.Now
	}
	return &Sampler{limiter: rate.NewLimiter(LinesPerSecond, Burst), now: now}
}

// Admit reports whether a line may be written, and how many lines were
// dropped since the last one that was. A verified caller's line is always
// written and reports no drops.
func (s *Sampler) Admit(verified bool) (ok bool, dropped int64) {
	if verified {
		return true, 0
	}
	if !s.limiter.AllowN(s.now(), 1) {
		s.dropped.Add(1)
		return false, 0
	}
	return true, s.dropped.Swap(0)
}
