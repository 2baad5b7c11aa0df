// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Access-log lines of requests that never proved who they are (no token,
// a token or key nobody accepted) are bounded per second: a stranger can
// send requests as fast as the network allows, and one line each would let
// it fill the disk or the log pipeline. A verified caller's lines are
// never dropped.
const (
	unverifiedLogLinesPerSecond = 20
	unverifiedLogLinesBurst     = 100
)

// requestNote is what the layers inside the access log learn about a
// request that the access log needs at its end: whether the caller proved
// who it is.
type requestNote struct{ verified atomic.Bool }

type requestNoteKey struct{}

// withRequestNote gives the request a note the inner layers fill.
func withRequestNote(r *http.Request) (*http.Request, *requestNote) {
	note := &requestNote{}
	return r.WithContext(context.WithValue(r.Context(), requestNoteKey{}, note)), note
}

// markVerified records that the request's caller proved who it is.
func markVerified(r *http.Request) {
	if note, ok := r.Context().Value(requestNoteKey{}).(*requestNote); ok {
		note.verified.Store(true)
	}
}

// logSampler lets through a bounded number of unverified requests' lines
// and counts the ones it drops, reported on the next line it lets through.
type logSampler struct {
	limiter    *rate.Limiter
	now        func() time.Time
	suppressed atomic.Int64
}

func newLogSampler(now func() time.Time) *logSampler {
	if now == nil {
		now = time.Now
	}
	return &logSampler{limiter: rate.NewLimiter(unverifiedLogLinesPerSecond, unverifiedLogLinesBurst), now: now}
}

// admit reports whether a line may be written, and how many lines were
// dropped since the last one that was.
func (s *logSampler) admit(verified bool) (ok bool, dropped int64) {
	if verified {
		return true, 0
	}
	if !s.limiter.AllowN(s.now(), 1) {
		s.suppressed.Add(1)
		return false, 0
	}
	return true, s.suppressed.Swap(0)
}
