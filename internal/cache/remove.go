// SPDX-License-Identifier: Apache-2.0

package cache

// Peek returns the value stored for key when it has not expired, without
// counting a hit or a miss and without making it the most recently used.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Peek(key)
	if !ok || c.expired(e) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Remove drops the value stored for key, if any. It is not an eviction.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
}

// RemoveIf drops every value whose key matches and returns how many it
// dropped. It visits every key under the cache's lock, so it is meant for
// rare invalidations, not for the read path.
func (c *Cache[K, V]) RemoveIf(match func(K) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.lru.Keys() {
		if match(k) {
			c.lru.Remove(k)
			n++
		}
	}
	return n
}
