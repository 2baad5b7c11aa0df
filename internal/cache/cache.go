// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Cache is a bounded, expiring LRU cache safe for concurrent use. Build one
// with New.
type Cache[K comparable, V any] struct {
	opts Options[V]

	mu    sync.Mutex // guards lru and bytes
	lru   *simplelru.LRU[K, entry[V]]
	bytes int64

	hits      atomic.Uint64
	misses    atomic.Uint64
	evictions atomic.Uint64

	flights *Flights[K, V]
	// refreshes tracks the background loads of GetOrLoadStale.
	refreshes refreshes[K]
}

// entry is one stored value with its size and expiry time.
type entry[V any] struct {
	value   V
	size    int64
	expires time.Time
}

// Stats is a snapshot of a cache's counters and contents.
type Stats struct {
	// Hits counts lookups answered from the cache.
	Hits uint64
	// Misses counts lookups the cache could not answer, expired values
	// included.
	Misses uint64
	// Evictions counts values dropped to make room (not expiries or purges).
	Evictions uint64
	// Entries is the number of values held, counting expired ones that have
	// not been dropped yet.
	Entries int64
	// Bytes is the total size of the values held.
	Bytes int64
}

// New builds a cache from opts, registering its metrics when
// opts.Registerer is set.
func New[K comparable, V any](opts Options[V]) (*Cache[K, V], error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	c := &Cache[K, V]{opts: opts.withDefaults()}
	flights, err := NewFlights[K, V](opts.Name, c.opts.LoadTimeout)
	if err != nil {
		return nil, err
	}
	c.flights = flights
	lru, err := simplelru.NewLRU(opts.MaxEntries, c.onRemove)
	if err != nil {
		return nil, err
	}
	c.lru = lru
	if opts.Registerer != nil {
		if err := opts.Registerer.Register(newCollector(opts.Name, c.Stats)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Get returns the value stored for key when it has not expired.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	v, ok := c.lookup(key)
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return v, ok
}

// lookup is Get without counting.
func (c *Cache[K, V]) lookup(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(key)
	if !ok {
		var zero V
		return zero, false
	}
	if c.expired(e) {
		if c.pastStale(e) {
			c.lru.Remove(key)
		}
		var zero V
		return zero, false
	}
	return e.value, true
}

// Peek returns the value stored for key when it has not expired, without
// counting a hit or a miss and without making it the most recently used.
func (c *Cache[K, V]) Peek(key K) (V, bool) { return c.peek(key, c.expired) }

// peek is a lookup that counts nothing and leaves the order alone; gone
// says which values it no longer finds.
func (c *Cache[K, V]) peek(key K, gone func(entry[V]) bool) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Peek(key)
	if !ok || gone(e) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Add stores v under key for the cache's TTL, replacing any older value.
// A value larger than MaxBytes is not stored, and the older value, now
// stale, is dropped.
func (c *Cache[K, V]) Add(key K, v V) {
	size := max(c.opts.SizeOf(v), 0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opts.MaxBytes > 0 && size > c.opts.MaxBytes {
		c.lru.Remove(key)
		return
	}
	c.dropExpiredTail()
	if old, ok := c.lru.Peek(key); ok {
		// simplelru replaces in place without calling onRemove.
		c.bytes -= old.size
	}
	e := entry[V]{value: v, size: size, expires: c.opts.Now().Add(c.opts.TTL)}
	if c.lru.Add(key, e) {
		c.evictions.Add(1)
	}
	c.bytes += size
	for c.opts.MaxBytes > 0 && c.bytes > c.opts.MaxBytes {
		c.lru.RemoveOldest()
		c.evictions.Add(1)
	}
}

// dropExpiredTail drops expired values (past Options.StaleFor as well)
// from the least recently used end, so that values nobody reads again do
// not hold room until evicted. The caller holds c.mu.
func (c *Cache[K, V]) dropExpiredTail() {
	for {
		key, e, ok := c.lru.GetOldest()
		if !ok || !c.pastStale(e) {
			return
		}
		c.lru.Remove(key)
	}
}

// expired reports whether e has outlived the TTL.
func (c *Cache[K, V]) expired(e entry[V]) bool {
	return !c.opts.Now().Before(e.expires)
}

// pastStale reports whether e has outlived the TTL and the stale window
// after it (Options.StaleFor), so that nothing may serve it any more.
func (c *Cache[K, V]) pastStale(e entry[V]) bool {
	return !c.opts.Now().Before(e.expires.Add(c.opts.StaleFor))
}

// onRemove keeps the byte total in step with every removal simplelru makes.
// It runs with c.mu held.
func (c *Cache[K, V]) onRemove(_ K, e entry[V]) {
	c.bytes -= e.size
}

// Stats returns the cache's counters and current size.
func (c *Cache[K, V]) Stats() Stats {
	c.mu.Lock()
	entries, bytes := int64(c.lru.Len()), c.bytes
	c.mu.Unlock()
	return Stats{
		Hits:      c.hits.Load(),
		Misses:    c.misses.Load(),
		Evictions: c.evictions.Load(),
		Entries:   entries,
		Bytes:     bytes,
	}
}

// Purge drops every stored value. Counters keep their values.
func (c *Cache[K, V]) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}
