// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"strings"
	"testing"
)

func TestPeekCountsNothing(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{MaxEntries: 2})
	c.Add("a", "1")
	c.Add("b", "2")
	if v, ok := c.Peek("a"); !ok || v != "1" {
		t.Fatalf("Peek(a) = %q, %v", v, ok)
	}
	if _, ok := c.Peek("missing"); ok {
		t.Fatal("Peek(missing) hit")
	}
	c.Add("c", "3") // a was only peeked, so it is still the oldest
	if _, ok := c.Peek("a"); ok {
		t.Error("Peek made a the most recently used")
	}
	if s := c.Stats(); s.Hits != 0 || s.Misses != 0 {
		t.Errorf("Stats = %+v, want no hits or misses", s)
	}
}

func TestRemoveAndRemoveIfKeepBytesExact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		remove    func(c *Cache[string, string]) int
		wantLeft  []string
		wantBytes int64
	}{
		{"remove one", func(c *Cache[string, string]) int { c.Remove("run1/a"); return 1 }, []string{"run1/b", "run2/a"}, 4},
		{"remove a missing key", func(c *Cache[string, string]) int { c.Remove("nope"); return 0 }, []string{"run1/a", "run1/b", "run2/a"}, 6},
		{"remove by prefix", func(c *Cache[string, string]) int {
			return c.RemoveIf(func(k string) bool { return strings.HasPrefix(k, "run1/") })
		}, []string{"run2/a"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newStringCache(t, Options[string]{MaxBytes: 100, SizeOf: byteLen})
			for _, k := range []string{"run1/a", "run1/b", "run2/a"} {
				c.Add(k, "xy")
			}
			removed := tt.remove(c)
			if want := 3 - len(tt.wantLeft); removed != want {
				t.Errorf("removed %d, want %d", removed, want)
			}
			for _, k := range tt.wantLeft {
				if _, ok := c.Peek(k); !ok {
					t.Errorf("%s was removed", k)
				}
			}
			if s := c.Stats(); s.Bytes != tt.wantBytes || s.Entries != int64(len(tt.wantLeft)) || s.Evictions != 0 {
				t.Errorf("Stats = %+v, want %d bytes in %d entries and no evictions", s, tt.wantBytes, len(tt.wantLeft))
			}
		})
	}
}
