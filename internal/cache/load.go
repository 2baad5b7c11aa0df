package cache

import (
	"context"
	"errors"
	"fmt"
)

// ErrLoadPanicked is returned (wrapped) to every caller of a load that
// panicked. The panic is recovered because the load runs on its own
// goroutine, where it would otherwise end the process.
var ErrLoadPanicked = errors.New("cache: load panicked")

// GetOrLoad returns the value stored for key, or runs load to produce it.
//
// Concurrent misses for one key share a single run of load. That run gets
// a context detached from every caller's cancellation (it keeps the first
// caller's values) and bounded by Options.LoadTimeout, so a caller whose
// ctx ends gets ctx's error at once while the others keep waiting. A
// successful value is stored; an error is returned to every waiting caller
// and never stored.
func (c *Cache[K, V]) GetOrLoad(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	if v, ok := c.Get(key); ok {
		return v, nil
	}
	if err := ctx.Err(); err != nil {
		var zero V
		return zero, err // nobody would wait for the load
	}
	name := c.keys.acquire(key)
	defer c.keys.release(key)
	results := c.flights.DoChan(name, func() (any, error) {
		return c.runLoad(ctx, key, load)
	})
	if c.joined != nil {
		c.joined()
	}
	select {
	case r := <-results:
		if r.Err != nil {
			var zero V
			return zero, r.Err
		}
		// A nil interface value would make a plain assertion panic.
		v, _ := r.Val.(V)
		return v, nil
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// runLoad is the shared body of one load: it re-checks the cache (a load
// for key may have finished between the caller's miss and now), runs load
// under its own deadline and stores a successful value.
func (c *Cache[K, V]) runLoad(callerCtx context.Context, key K, load func(context.Context) (V, error)) (v V, err error) {
	if v, ok := c.lookup(key); ok {
		return v, nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(callerCtx), c.opts.LoadTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: cache %q: %v", ErrLoadPanicked, c.opts.Name, p)
		}
	}()
	v, err = load(ctx)
	if err != nil {
		return v, err
	}
	c.Add(key, v)
	return v, nil
}
