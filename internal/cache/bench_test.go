// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"strconv"
	"testing"
	"time"
)

func newBenchCache(b *testing.B) *Cache[string, string] {
	b.Helper()
	c, err := New[string](Options[string]{
		Name: "bench", MaxEntries: 1024, MaxBytes: 1 << 20, TTL: time.Hour, SizeOf: byteLen,
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1024 {
		c.Add("key-"+strconv.Itoa(i), "value")
	}
	return c
}

func BenchmarkGetHit(b *testing.B) {
	c := newBenchCache(b)
	for b.Loop() {
		if _, ok := c.Get("key-7"); !ok {
			b.Fatal("miss")
		}
	}
}

func BenchmarkGetHitParallel(b *testing.B) {
	c := newBenchCache(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := c.Get("key-7"); !ok {
				b.Fatal("miss")
			}
		}
	})
}
