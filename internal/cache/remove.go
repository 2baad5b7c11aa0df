// SPDX-License-Identifier: Apache-2.0

package cache

// Remove drops the value stored for key, if any. It is not an eviction.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values.remove(key)
}

// RemoveIf drops every value whose key matches and returns how many it
// dropped. It visits every key under the cache's lock, so it is meant for
// rare invalidations, not for the read path.
func (c *Cache[K, V]) RemoveIf(match func(K) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.values.keys() {
		if match(k) {
			c.values.remove(k)
			n++
		}
	}
	return n
}
