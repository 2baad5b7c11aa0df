// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// maxLimitedCallers bounds the buckets kept for each of the two kinds of
// caller (verified, unverified); the least recently used go first.
const maxLimitedCallers = 4096

// SharedRateLimiter is a per-caller token bucket shared by every replica of
// the gateway (the shared state's cluster-wide limit).
type SharedRateLimiter interface {
	// Allow takes a token from caller's bucket; when it is refused,
	// retryAfter says how long to wait. An error means the shared limit
	// could not decide, and the replica's own bucket decides instead.
	Allow(ctx context.Context, caller string) (allowed bool, retryAfter time.Duration, err error)
}

// Limits is a token bucket per caller (--rate-limit), keyed by the name
// the front door gave the caller (reqctx.Info.Caller): who the credential
// belongs to where that is known, so fresh logins or copies of a key buy
// nothing. Verified and unverified callers keep their buckets apart, so
// strangers from ever new addresses cannot push a verified caller's
// bucket out (and so refill it). With a shared limiter that decides first,
// the local buckets decide only while it cannot.
type Limits struct {
	every  rate.Limit
	burst  int
	shared SharedRateLimiter
	now    func() time.Time

	mu         sync.Mutex // makes get-or-make of a bucket one step
	verified   *cache.Cache[string, *rate.Limiter]
	unverified *cache.Cache[string, *rate.Limiter]
}

// NewLimits builds the limits of perSecond reads per caller in bursts of
// burst (default twice the rate, at least 1); nil when perSecond is 0.
// now replaces the clock (nil: time.Now).
func NewLimits(perSecond float64, burst int, shared SharedRateLimiter, now func() time.Time) (*Limits, error) {
	if perSecond <= 0 {
		return nil, nil
	}
	if burst <= 0 {
		burst = max(1, int(2*perSecond))
	}
	if now == nil {
		now = time.Now
	}
	// A bucket left alone this long is full again: forgetting it changes
	// nothing.
	idle := max(time.Hour, time.Duration(float64(burst)/perSecond*float64(time.Second)))
	pool := func(name string) (*cache.Cache[string, *rate.Limiter], error) {
		return cache.New[string](cache.Options[*rate.Limiter]{Name: name, MaxEntries: maxLimitedCallers, TTL: idle, Now: now})
	}
	verified, err := pool("rate_limit_verified")
	if err != nil {
		return nil, err
	}
	unverified, err := pool("rate_limit_unverified")
	if err != nil {
		return nil, err
	}
	return &Limits{every: rate.Limit(perSecond), burst: burst, shared: shared, now: now, verified: verified, unverified: unverified}, nil
}

// Admit takes a token from the bucket of the caller ctx carries; when it
// is refused, retryAfter says how long to wait. A nil Limits admits all.
func (l *Limits) Admit(ctx context.Context) (retryAfter time.Duration, ok bool) {
	if l == nil {
		return 0, true
	}
	info, _ := reqctx.From(ctx)
	if l.shared != nil {
		if allowed, wait, err := l.shared.Allow(ctx, info.Caller); err == nil {
			return wait, allowed
		}
	}
	r := l.bucket(info).ReserveN(l.now(), 1)
	if delay := r.DelayFrom(l.now()); delay > 0 {
		r.CancelAt(l.now())
		return delay, false
	}
	return 0, true
}

// bucket is the caller's bucket, made full when it has none; using it
// keeps it for another idle period.
func (l *Limits) bucket(info reqctx.Info) *rate.Limiter {
	pool := l.verified
	if info.Trust != reqctx.TrustVerified && info.Trust != "" {
		pool = l.unverified
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := pool.Get(info.Caller)
	if !ok {
		b = rate.NewLimiter(l.every, l.burst)
	}
	pool.Add(info.Caller, b)
	return b
}
