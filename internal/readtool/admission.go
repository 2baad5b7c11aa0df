// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"fmt"
	"time"
)

// A read is admitted by the caller's limits, which live with the trust
// decision (internal/trust) and reach the tool through the Limiter and
// ConcurrencyLimiter ports; this file only answers their refusals in the
// contract's terms.

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
