// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// maxRateCallers bounds how many callers' token buckets are kept; the
// least recently seen caller's bucket is dropped first.
const maxRateCallers = 4096

// callerLimits is a token bucket per caller (Options.RateLimit); nil when
// rate limiting is off.
type callerLimits struct {
	every rate.Limit
	burst int
	byKey *lru.Cache[string, *rate.Limiter]
}

func newCallerLimits(perSecond float64, burst int) (*callerLimits, error) {
	if perSecond <= 0 {
		return nil, nil
	}
	if burst <= 0 {
		burst = max(1, int(2*perSecond))
	}
	byKey, err := lru.New[string, *rate.Limiter](maxRateCallers)
	if err != nil {
		return nil, err
	}
	return &callerLimits{every: rate.Limit(perSecond), burst: burst, byKey: byKey}, nil
}

// admit takes a token from the caller's bucket, or returns the
// resource_unavailable error that tells the agent how long to wait.
func (l *callerLimits) admit(ctx context.Context) *Error {
	if l == nil {
		return nil
	}
	info, _ := reqctx.From(ctx)
	lim, ok := l.byKey.Get(info.Caller)
	if !ok {
		lim = rate.NewLimiter(l.every, l.burst)
		l.byKey.Add(info.Caller, lim)
	}
	r := lim.Reserve()
	delay := r.Delay()
	if delay == 0 {
		return nil
	}
	r.Cancel()
	wait := max(delay, time.Millisecond)
	return newError(CodeResourceUnavailable, fmt.Sprintf("Too many reads from this caller; try again in %d ms.", wait.Milliseconds())).
		withDetail("retryAfterMs", wait.Milliseconds())
}
