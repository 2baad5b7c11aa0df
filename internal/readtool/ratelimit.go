// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"time"
)

// Limiter admits the reads of the caller a request's context carries
// (reqctx.Info.Caller): the per-caller limits, which live with the trust
// decision (trust.Limits) and are handed in by cmd/gateway.
type Limiter interface {
	// Admit takes one read of the caller's allowance; when it is refused,
	// retryAfter says how long to wait.
	Admit(ctx context.Context) (retryAfter time.Duration, ok bool)
}

// ConcurrencyLimiter bounds the reads in flight of the caller a request's
// context carries (trust.Concurrency, handed in by cmd/gateway).
type ConcurrencyLimiter interface {
	// Acquire takes one of the caller's places; release must be called
	// once when ok.
	Acquire(ctx context.Context) (release func(), ok bool)
}

// callerConcurrencyRetry is the wait a caller at its limit of reads in
// flight is told to take: about one read's time.
const callerConcurrencyRetry = 250 * time.Millisecond

// acquire takes a place among the caller's reads in flight, or returns the
// resource_unavailable error that tells the agent to wait; release is
// never nil.
func (t *Tool) acquire(ctx context.Context) (release func(), e *Error) {
	if t.concurrency == nil {
		return func() {}, nil
	}
	release, ok := t.concurrency.Acquire(ctx)
	if !ok {
		wait := callerConcurrencyRetry.Milliseconds()
		return func() {}, newError(CodeResourceUnavailable, fmt.Sprintf("Too many reads in flight from this caller; try again in %d ms.", wait)).
			withDetail("retryAfterMs", wait)
	}
	return release, nil
}

// admit applies the limiter, or returns the resource_unavailable error
// that tells the agent how long to wait.
func (t *Tool) admit(ctx context.Context) *Error {
	if t.limiter == nil {
		return nil
	}
	if wait, ok := t.limiter.Admit(ctx); !ok {
		return tooManyReads(wait)
	}
	return nil
}

// tooManyReads is the resource_unavailable error that tells the agent how
// long to wait.
func tooManyReads(delay time.Duration) *Error {
	wait := max(delay, time.Millisecond)
	return newError(CodeResourceUnavailable, fmt.Sprintf("Too many reads from this caller; try again in %d ms.", wait.Milliseconds())).
		withDetail("retryAfterMs", wait.Milliseconds())
}
