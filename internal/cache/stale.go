// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"sync"
)

// GetOrLoadStale is GetOrLoad that also answers from a value that has
// expired less than Options.StaleFor ago: it returns that value at once
// and starts one background load of key to replace it, unless one is
// running already. A value further past its expiry, or none, is loaded
// inline as GetOrLoad does.
//
// The background load runs as a GetOrLoad load does (shared with any
// concurrent load of key, bounded by Options.LoadTimeout, with ctx's
// values), detached from ctx's cancellation, so the caller that triggered
// it may leave, but it ends when base ends: pass the context of the
// process's lifetime. A failed background load keeps the stale value; the
// next read within the window starts another.
func (c *Cache[K, V]) GetOrLoadStale(ctx, base context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	v, fresh, stale := c.lookupStale(key)
	switch {
	case fresh:
		c.hits.Add(1)
		return v, nil
	case stale:
		c.hits.Add(1)
		c.refreshInBackground(ctx, base, key, load)
		return v, nil
	}
	c.misses.Add(1)
	return c.loadShared(ctx, key, load)
}

// PeekStale reports whether key holds a value GetOrLoadStale could still
// answer from (fresh, or expired less than Options.StaleFor ago), without
// counting a hit or a miss and without making it the most recently used.
func (c *Cache[K, V]) PeekStale(key K) (V, bool) { return c.peek(key, c.pastStale) }

// lookupStale returns the value stored for key and whether it is fresh or
// only within the stale window. A value past the window is dropped.
func (c *Cache[K, V]) lookupStale(key K) (v V, fresh, stale bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.values.get(key)
	switch {
	case !ok:
		return v, false, false
	case !c.expired(e):
		return e.value, true, false
	case !c.pastStale(e):
		return e.value, false, true
	}
	c.values.remove(key)
	return v, false, false
}

// refreshInBackground starts the one background load of key, unless one
// is running.
func (c *Cache[K, V]) refreshInBackground(ctx, base context.Context, key K, load func(context.Context) (V, error)) {
	if !c.refreshes.claim(key) {
		return
	}
	detached := context.WithoutCancel(ctx)
	go func() {
		defer c.refreshes.release(key)
		// The error is dropped on purpose: the stale value stays, and the
		// next read within the window tries again.
		_, _ = c.flights.Do(detached, key, func(ctx context.Context) (V, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(base, cancel)()
			return c.loadAndStore(ctx, key, load)
		})
	}()
}

// WaitRefreshes blocks until the background loads GetOrLoadStale started
// before the call have ended (for tests and orderly shutdown).
func (c *Cache[K, V]) WaitRefreshes() { c.refreshes.wait() }

// refreshes is the set of keys with a background load running.
type refreshes[K comparable] struct {
	mu      sync.Mutex
	running map[K]struct{}
	wg      sync.WaitGroup
}

// claim marks key as refreshing; it reports false when it already was.
func (r *refreshes[K]) claim(key K) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.running[key]; ok {
		return false
	}
	if r.running == nil {
		r.running = make(map[K]struct{})
	}
	r.running[key] = struct{}{}
	r.wg.Add(1)
	return true
}

// release ends key's refresh.
func (r *refreshes[K]) release(key K) {
	r.mu.Lock()
	delete(r.running, key)
	r.mu.Unlock()
	r.wg.Done()
}

// wait blocks until no refresh is running.
func (r *refreshes[K]) wait() { r.wg.Wait() }
