// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

// gcraScript is the generic cell rate algorithm: the key holds the
// theoretical arrival time (TAT, microseconds of the server's clock, so
// replicas' clocks never matter) of the next token. A request is admitted
// when TAT + interval - burst*interval is not in the future; it then moves
// TAT one interval on. The bucket of a fresh caller admits burst requests
// at once and one per interval after that, as golang.org/x/time/rate does.
//
// KEYS[1] the caller's key; ARGV[1] interval (µs); ARGV[2] burst.
// Returns {1, 0} when admitted, {0, wait µs} when not.
var gcraScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local next_tat = tat + interval
local allow_at = next_tat - burst * interval
if allow_at > now then
  return {0, allow_at - now}
end
local ttl_ms = math.ceil((next_tat - now) / 1000) + 1
redis.call('SET', KEYS[1], string.format('%.0f', next_tat), 'PX', ttl_ms)
return {1, 0}
`)

// Decision is a rate limiter's answer.
type Decision struct {
	// Allowed is true when the request may go ahead.
	Allowed bool
	// RetryAfter is how long to wait before the next request is admitted,
	// when it is not.
	RetryAfter time.Duration
}

// RateLimiter is a token bucket per caller, shared by every replica:
// perSecond tokens a second, at most burst at once, cluster-wide.
type RateLimiter struct {
	s        *Store
	interval time.Duration
	burst    int
}

// RateLimiter returns the cluster-wide limiter for perSecond requests a
// second with the given burst (at least 1).
func (s *Store) RateLimiter(perSecond float64, burst int) (*RateLimiter, error) {
	if perSecond <= 0 || math.IsInf(perSecond, 0) || math.IsNaN(perSecond) {
		return nil, fmt.Errorf("shared rate limit: rate must be above zero, got %v", perSecond)
	}
	if burst < 1 {
		return nil, fmt.Errorf("shared rate limit: burst must be at least 1, got %d", burst)
	}
	interval := max(time.Duration(float64(time.Second)/perSecond), time.Microsecond)
	return &RateLimiter{s: s, interval: interval, burst: burst}, nil
}

// Allow takes a token from caller's bucket. The error is ErrUnavailable
// (or the context's) when Redis could not decide; the caller then applies
// its local limit instead. Only a hash of caller reaches Redis.
func (l *RateLimiter) Allow(ctx context.Context, caller string) (Decision, error) {
	var res []int64
	key := l.s.taggedKey(familyRateLimit, hashName(caller))
	err := l.s.run(ctx, "rate_limit", key, func(ctx context.Context) error {
		cmd := gcraScript.Run(ctx, l.s.client, []string{key}, l.interval.Microseconds(), l.burst)
		if err := cmd.Err(); err != nil {
			return answerError(err)
		}
		raw, err := cmd.Int64Slice()
		if err != nil || len(raw) != 2 || raw[0] < 0 || raw[0] > 1 || raw[1] < 0 {
			return fmt.Errorf("%w: rate limit script answered %v", errGarbage, raw)
		}
		res = raw
		return nil
	})
	if err != nil {
		if l.s != nil {
			l.s.metrics.rateLimited.WithLabelValues(resultUnavailable).Inc()
		}
		return Decision{}, err
	}
	if res[0] == 1 {
		l.s.metrics.rateLimited.WithLabelValues("allowed").Inc()
		return Decision{Allowed: true}, nil
	}
	l.s.metrics.rateLimited.WithLabelValues("denied").Inc()
	return Decision{RetryAfter: max(time.Duration(res[1])*time.Microsecond, time.Millisecond)}, nil
}
