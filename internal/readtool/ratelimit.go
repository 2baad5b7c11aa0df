// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// maxRateCallers bounds how many callers' token buckets are kept; the
// least recently seen caller's bucket is dropped first.
const maxRateCallers = 4096

// SharedRateLimiter is a per-caller token bucket shared by every replica of
// the gateway (the shared state's cluster-wide limit).
type SharedRateLimiter interface {
	// Allow takes a token from caller's bucket; when it is refused,
	// retryAfter says how long to wait. An error means the shared limit
	// could not decide, and the replica's own bucket decides instead.
	Allow(ctx context.Context, caller string) (allowed bool, retryAfter time.Duration, err error)
}

// callerLimits is a token bucket per caller (Options.RateLimit); nil when
// rate limiting is off. With a shared limiter it decides first, and the
// local buckets decide only while it cannot.
type callerLimits struct {
	every  rate.Limit
	burst  int
	byKey  *lru.Cache[string, *rate.Limiter]
	shared SharedRateLimiter
}

func newCallerLimits(perSecond float64, burst int, shared SharedRateLimiter) (*callerLimits, error) {
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
	return &callerLimits{every: rate.Limit(perSecond), burst: burst, byKey: byKey, shared: shared}, nil
}

// admit takes a token from the caller's bucket, or returns the
// resource_unavailable error that tells the agent how long to wait.
func (l *callerLimits) admit(ctx context.Context) *Error {
	if l == nil {
		return nil
	}
	info, _ := reqctx.From(ctx)
	key := limitKey(info.Caller)
	if l.shared != nil {
		if allowed, wait, err := l.shared.Allow(ctx, key); err == nil {
			if allowed {
				return nil
			}
			return tooManyReads(wait)
		}
	}
	lim, ok := l.byKey.Get(key)
	if !ok {
		lim = rate.NewLimiter(l.every, l.burst)
		l.byKey.Add(key, lim)
	}
	r := lim.Reserve()
	delay := r.Delay()
	if delay == 0 {
		return nil
	}
	r.Cancel()
	return tooManyReads(delay)
}

// unverifiedPrefix starts the name of a caller the front door named by
// its remote address (see trust.Decision.Caller).
const unverifiedPrefix = "unverified:"

// limitKey is the bucket of a caller: its name, except that an unverified
// caller at an IPv6 address shares one bucket with its whole /64 network.
// A host is commonly given a /64; without this it could take a fresh
// bucket per address, and by filling the bucket cache with them push out
// (and so refill) the bucket of its own verified key.
func limitKey(caller string) string {
	addr, ok := strings.CutPrefix(caller, unverifiedPrefix)
	if !ok {
		return caller
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil || ip.Unmap().Is4() {
		return caller
	}
	prefix, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return caller
	}
	return unverifiedPrefix + prefix.String()
}

// tooManyReads is the resource_unavailable error that tells the agent how
// long to wait.
func tooManyReads(delay time.Duration) *Error {
	wait := max(delay, time.Millisecond)
	return newError(CodeResourceUnavailable, fmt.Sprintf("Too many reads from this caller; try again in %d ms.", wait.Milliseconds())).
		withDetail("retryAfterMs", wait.Milliseconds())
}
