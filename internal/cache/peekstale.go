// SPDX-License-Identifier: Apache-2.0

package cache

// PeekStale reports whether key holds a value GetOrLoadStale could still
// answer from (fresh, or expired less than Options.StaleFor ago), without
// counting a hit or a miss and without making it the most recently used.
func (c *Cache[K, V]) PeekStale(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Peek(key)
	if !ok || c.pastStale(e) {
		var zero V
		return zero, false
	}
	return e.value, true
}
