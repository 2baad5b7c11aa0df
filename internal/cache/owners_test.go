// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestOwnersKeepTheirParts: values are stored by owners (callers); one
// owner filling the cache drops its own values, never those of an owner
// within its part, while the cache's bounds stay exact and an owner alone
// has the whole cache.
func TestOwnersKeepTheirParts(t *testing.T) {
	t.Parallel()
	// add is owner/key/size; a key of "-" advances the clock by a TTL.
	type add struct {
		owner, key string
		size       int
	}
	fill := func(owner string, n, size int) []add {
		var out []add
		for i := range n {
			out = append(out, add{owner, owner + string(rune('a'+i)), size})
		}
		return out
	}
	tests := []struct {
		name       string
		maxBytes   int64
		maxEntries int
		adds       []add
		want       []string // the keys held afterwards
	}{
		{
			name: "a caller filling the cache keeps another's value", maxBytes: 100,
			adds: append([]add{{"victim", "v", 30}}, fill("attacker", 10, 20)...),
			// Parts of 50 each: the attacker drops its own oldest.
			want: []string{"v", "attackerh", "attackeri", "attackerj"},
		},
		{
			name: "a lone caller uses the whole cache", maxBytes: 100,
			adds: fill("alone", 5, 20),
			want: []string{"alonea", "aloneb", "alonec", "aloned", "alonee"},
		},
		{
			name: "a lone caller past the bound drops its least recently used", maxBytes: 100,
			adds: fill("alone", 6, 20),
			want: []string{"aloneb", "alonec", "aloned", "alonee", "alonef"},
		},
		{
			name: "a caller over its part gives back to another", maxBytes: 100,
			adds: append(fill("victim", 4, 20), fill("attacker", 5, 20)...),
			// Parts of 50 each: the victim gives back its oldest until both
			// are as far over their parts, then the one adding gives back.
			want: []string{"victimb", "victimc", "victimd", "attackerd", "attackere"},
		},
		{
			name: "a value larger than the fair part keeps its place", maxBytes: 100,
			adds: append([]add{{"victim", "big", 70}}, fill("attacker", 4, 20)...),
			want: []string{"big", "attackerd"},
		},
		{
			name: "the entry bound is shared the same way", maxEntries: 4,
			adds: append(fill("victim", 2, 1), fill("attacker", 5, 1)...),
			want: []string{"victima", "victimb", "attackerd", "attackere"},
		},
		{
			name: "three callers: the flooder gives back, the others keep theirs", maxBytes: 90,
			adds: append(append([]add{{"v1", "x", 30}, {"v2", "y", 30}}, fill("attacker", 8, 10)...), add{"v1", "z", 10}),
			// Parts of 30: v1 now holds 40 and gives back its least
			// recently used value other than its largest.
			want: []string{"x", "y", "attackerf", "attackerg", "attackerh"},
		},
		{
			name: "a lone caller keeps plain recency order, its largest value too", maxBytes: 100,
			adds: append([]add{{"alone", "big", 60}}, fill("alone", 3, 20)...),
			want: []string{"alonea", "aloneb", "alonec"},
		},
		{
			name: "a caller's largest value goes last", maxBytes: 100,
			adds: append([]add{{"victim", "big", 60}, {"victim", "small", 10}}, fill("attacker", 4, 20)...),
			// The victim's part is its largest value (60): it gives back
			// the small one, then the attacker its own oldest.
			want: []string{"big", "attackerc", "attackerd"},
		},
		{
			name: "an idle caller's expired values free their room", maxBytes: 100,
			adds: append([]add{{"idle", "old", 60}, {"", "-", 0}}, fill("busy", 5, 20)...),
			want: []string{"busya", "busyb", "busyc", "busyd", "busye"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := testkit.NewClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
			entries := tt.maxEntries
			if entries == 0 {
				entries = 100
			}
			c, err := New[string](Options[string]{MaxEntries: entries, MaxBytes: tt.maxBytes, TTL: time.Minute,
				SizeOf: byteLen, Now: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range tt.adds {
				if a.key == "-" {
					clock.Advance(time.Minute)
					continue
				}
				c.AddFor(a.owner, a.key, strings.Repeat("x", a.size))
				s := c.Stats()
				if (tt.maxBytes > 0 && s.Bytes > tt.maxBytes) || s.Entries > int64(entries) {
					t.Fatalf("after add %d: %d bytes in %d entries, above the bounds", i, s.Bytes, s.Entries)
				}
			}
			var held []string
			for _, k := range c.values.keys() {
				if _, ok := c.Peek(k); ok {
					held = append(held, k)
				}
			}
			slices.Sort(held)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(held, want) {
				t.Fatalf("held %v, want %v", held, want)
			}
		})
	}
}
