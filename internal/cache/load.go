// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"errors"
)

// ErrLoadPanicked is returned (wrapped) to every caller of a load that
// panicked. The panic is recovered because the load runs on its own
// goroutine, where it would otherwise end the process.
var ErrLoadPanicked = errors.New("cache: load panicked")

// GetOrLoad returns the value stored for key, or runs load to produce it.
//
// Concurrent misses for one key share a single run of load (see
// Flights.Do): that run gets a context detached from every caller's
// cancellation (it keeps the first caller's values) and bounded by
// Options.LoadTimeout, so a caller whose ctx ends gets ctx's error at once
// while the others keep waiting. A successful value is stored; an error is
// returned to every waiting caller and never stored.
func (c *Cache[K, V]) GetOrLoad(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	if v, ok := c.Get(key); ok {
		return v, nil
	}
	return c.loadShared(ctx, key, load)
}

// loadShared runs load for key, or joins the load of key in flight, and
// stores a successful value.
func (c *Cache[K, V]) loadShared(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	return c.flights.Do(ctx, key, func(ctx context.Context) (V, error) {
		return c.loadAndStore(ctx, key, load)
	})
}

// loadAndStore is the shared body of one load: it re-checks the cache (a
// load for key may have finished between the caller's miss and now), runs
// load and stores a successful value.
func (c *Cache[K, V]) loadAndStore(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	if v, ok := c.lookup(key); ok {
		return v, nil
	}
	v, err := load(ctx)
	if err != nil {
		return v, err
	}
	c.Add(key, v)
	return v, nil
}
