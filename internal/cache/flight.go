// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
)

// Flights shares one run of a load among the concurrent callers asking for
// the same key, and stores nothing: the coalescing half of GetOrLoad, for
// callers that only want identical concurrent requests to cost one call.
// The zero value is not usable; build one with NewFlights.
type Flights[K comparable, V any] struct {
	name    string
	timeout time.Duration
	group   singleflight.Group
	keys    flightKeys[K]
	// waiting counts the callers that have joined a load and not returned.
	waiting atomic.Int64
	// joined, when set by tests, runs after a caller has joined a load.
	joined func()
}

// NewFlights builds a Flights. name identifies it in the error of a load
// that panicked; timeout bounds each shared load (zero means
// DefaultLoadTimeout).
func NewFlights[K comparable, V any](name string, timeout time.Duration) (*Flights[K, V], error) {
	if timeout < 0 {
		return nil, fmt.Errorf("flights %q: timeout must not be negative, got %s", name, timeout)
	}
	if timeout == 0 {
		timeout = DefaultLoadTimeout
	}
	return &Flights[K, V]{name: name, timeout: timeout}, nil
}

// Do runs load for key, or joins the run already in flight for key.
//
// The shared run gets a context detached from every caller's cancellation
// (it keeps the first caller's values) and bounded by the timeout, so a
// caller whose ctx ends gets ctx's error at once while the others keep
// waiting. Every caller gets the run's value or error.
func (f *Flights[K, V]) Do(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	var zero V
	if err := ctx.Err(); err != nil {
		return zero, err // nobody would wait for the load
	}
	name := f.keys.acquire(key)
	defer f.keys.release(key)
	results := f.group.DoChan(name, func() (any, error) {
		return f.run(ctx, load)
	})
	f.waiting.Add(1)
	defer f.waiting.Add(-1)
	if f.joined != nil {
		f.joined()
	}
	select {
	case r := <-results:
		if r.Err != nil {
			return zero, r.Err
		}
		// A nil interface value would make a plain assertion panic.
		v, _ := r.Val.(V)
		return v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// run is the shared body of one flight: load under its own deadline, with
// a panic turned into an error, because the flight runs on its own
// goroutine, where a panic would end the process.
func (f *Flights[K, V]) run(callerCtx context.Context, load func(context.Context) (V, error)) (v V, err error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(callerCtx), f.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: cache %q: %v", ErrLoadPanicked, f.name, p)
		}
	}()
	return load(ctx)
}

// Waiting reports how many callers are in Do now and have joined a load:
// every one of them gets that load's result, whenever it ends. (A caller
// that has only reserved the key's flight name could still miss a load
// that ends first, and start another.)
func (f *Flights[K, V]) Waiting() int { return int(f.waiting.Load()) }
