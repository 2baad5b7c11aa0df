// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"sync"
	"sync/atomic"
	"time"
)

// Cache is a bounded, expiring LRU cache safe for concurrent use. Build one
// with New.
type Cache[K comparable, V any] struct {
	opts Options[V]

	mu     sync.Mutex // guards values
	values *shelves[K, V]

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
	c.values = newShelves[K, V](opts.MaxEntries)
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
	e, ok := c.values.get(key)
	if !ok {
		var zero V
		return zero, false
	}
	if c.expired(e) {
		if c.pastStale(e) {
			c.values.remove(key)
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
	e, ok := c.values.peek(key)
	if !ok || gone(e) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Add stores v under key for the cache's TTL, replacing any older value,
// as AddFor does for the owner "".
func (c *Cache[K, V]) Add(key K, v V) { c.AddFor("", key, v) }

// AddFor stores v under key for the cache's TTL as owner's, replacing any
// older value (whoever stored it). A value larger than MaxBytes is not
// stored, and the older value, now stale, is dropped. When the value
// pushes the cache over a bound, values are dropped from the owner most
// over its part, owner itself when nobody is (see shelves.go).
func (c *Cache[K, V]) AddFor(owner string, key K, v V) {
	size := max(c.opts.SizeOf(v), 0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.opts.MaxBytes > 0 && size > c.opts.MaxBytes {
		c.values.remove(key)
		return
	}
	// Values nobody may be served any more hold no room.
	c.values.dropTails(c.pastStale)
	if c.values.add(owner, key, entry[V]{value: v, size: size, expires: c.opts.Now().Add(c.opts.TTL)}) {
		c.evictions.Add(1)
	}
	for c.over() {
		c.values.evictFor(owner, c.opts.MaxBytes)
		c.evictions.Add(1)
	}
}

// over reports whether the cache holds more than a bound allows. The
// caller holds c.mu.
func (c *Cache[K, V]) over() bool {
	return c.values.len() > c.opts.MaxEntries || (c.opts.MaxBytes > 0 && c.values.bytes > c.opts.MaxBytes)
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

// Stats returns the cache's counters and current size.
func (c *Cache[K, V]) Stats() Stats {
	c.mu.Lock()
	entries, bytes := int64(c.values.len()), c.values.bytes
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
	c.values.purge()
}
