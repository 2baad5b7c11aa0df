// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

func byteLen(s string) int64 { return int64(len(s)) }

func newStringCache(t *testing.T, opts Options[string]) *Cache[string, string] {
	t.Helper()
	if opts.TTL == 0 {
		opts.TTL = time.Minute
	}
	if opts.MaxEntries == 0 {
		opts.MaxEntries = 100
	}
	c, err := New[string](opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options[string]
		want string // substring of the error, "" for success
	}{
		{"valid", Options[string]{MaxEntries: 1, TTL: time.Second}, ""},
		{"valid with bytes", Options[string]{MaxEntries: 1, TTL: time.Second, MaxBytes: 10, SizeOf: byteLen}, ""},
		{"zero entries", Options[string]{TTL: time.Second}, "MaxEntries"},
		{"negative entries", Options[string]{MaxEntries: -1, TTL: time.Second}, "MaxEntries"},
		{"zero ttl", Options[string]{MaxEntries: 1}, "TTL"},
		{"negative bytes", Options[string]{MaxEntries: 1, TTL: time.Second, MaxBytes: -1}, "MaxBytes"},
		{"bytes without SizeOf", Options[string]{MaxEntries: 1, TTL: time.Second, MaxBytes: 10}, "SizeOf"},
		{"negative load timeout", Options[string]{MaxEntries: 1, TTL: time.Second, LoadTimeout: -1}, "LoadTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New[string](tt.opts)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("New: unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New: error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// step is one action of a scripted cache test.
type step struct {
	add     string // key to add (with value "v-"+key, or val when set)
	val     string
	get     string // key to look up
	want    bool   // whether get should hit
	advance time.Duration
}

func TestCacheScripts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      Options[string]
		steps     []step
		wantStats Stats
	}{
		{
			name: "evicts least recently used by count",
			opts: Options[string]{MaxEntries: 2},
			steps: []step{
				{add: "a"}, {add: "b"},
				{get: "a", want: true}, // a is now the most recent
				{add: "c"},             // evicts b
				{get: "b", want: false},
				{get: "a", want: true},
				{get: "c", want: true},
			},
			wantStats: Stats{Hits: 3, Misses: 1, Evictions: 1, Entries: 2},
		},
		{
			name: "evicts by bytes",
			opts: Options[string]{MaxEntries: 10, MaxBytes: 10, SizeOf: byteLen},
			steps: []step{
				{add: "a", val: "1234"}, {add: "b", val: "1234"},
				{add: "c", val: "12345"}, // 13 bytes: a goes
				{get: "a", want: false},
				{get: "b", want: true},
				{get: "c", want: true},
			},
			wantStats: Stats{Hits: 2, Misses: 1, Evictions: 1, Entries: 2, Bytes: 9},
		},
		{
			name: "replacing a value updates the byte total",
			opts: Options[string]{MaxEntries: 10, MaxBytes: 10, SizeOf: byteLen},
			steps: []step{
				{add: "a", val: "12345678"},
				{add: "a", val: "12"},
				{add: "b", val: "12345678"}, // fits only if a's old size is gone
				{get: "a", want: true},
				{get: "b", want: true},
			},
			wantStats: Stats{Hits: 2, Entries: 2, Bytes: 10},
		},
		{
			name: "value above MaxBytes is not stored and drops the stale one",
			opts: Options[string]{MaxEntries: 10, MaxBytes: 4, SizeOf: byteLen},
			steps: []step{
				{add: "a", val: "1234"},
				{add: "a", val: "12345"},
				{get: "a", want: false},
			},
			wantStats: Stats{Misses: 1},
		},
		{
			name: "expires after TTL",
			opts: Options[string]{MaxEntries: 10, TTL: time.Minute, SizeOf: byteLen},
			steps: []step{
				{add: "a", val: "xy"},
				{advance: time.Minute - time.Nanosecond},
				{get: "a", want: true},
				{advance: time.Nanosecond},
				{get: "a", want: false},
			},
			wantStats: Stats{Hits: 1, Misses: 1},
		},
		{
			name: "adding renews the TTL",
			opts: Options[string]{MaxEntries: 10, TTL: time.Minute},
			steps: []step{
				{add: "a"},
				{advance: 40 * time.Second},
				{add: "a"},
				{advance: 40 * time.Second},
				{get: "a", want: true},
			},
			wantStats: Stats{Hits: 1, Entries: 1},
		},
		{
			name: "expired values at the cold end are dropped on add",
			opts: Options[string]{MaxEntries: 10, TTL: time.Minute, SizeOf: byteLen},
			steps: []step{
				{add: "a", val: "123"}, {add: "b", val: "123"},
				{advance: time.Minute},
				{add: "c", val: "1"},
			},
			wantStats: Stats{Entries: 1, Bytes: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := testkit.NewClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
			tt.opts.Now = clock.Now
			c := newStringCache(t, tt.opts)
			for i, s := range tt.steps {
				switch {
				case s.add != "":
					v := s.val
					if v == "" {
						v = "v-" + s.add
					}
					c.Add(s.add, v)
				case s.get != "":
					if _, ok := c.Get(s.get); ok != s.want {
						t.Fatalf("step %d: Get(%q) hit=%v, want %v", i, s.get, ok, s.want)
					}
				default:
					clock.Advance(s.advance)
				}
			}
			if got := c.Stats(); got != tt.wantStats {
				t.Fatalf("Stats = %+v, want %+v", got, tt.wantStats)
			}
		})
	}
}

func TestGetReturnsStoredValue(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{})
	c.Add("k", "value")
	got, ok := c.Get("k")
	if !ok || got != "value" {
		t.Fatalf("Get = %q, %v; want \"value\", true", got, ok)
	}
}

func TestPurgeDropsValuesKeepsCounters(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{MaxBytes: 100, SizeOf: byteLen})
	c.Add("a", "123")
	c.Add("b", "45")
	c.Get("a")
	c.Purge()
	if _, ok := c.Get("a"); ok {
		t.Fatal("Get after Purge hit")
	}
	want := Stats{Hits: 1, Misses: 1}
	if got := c.Stats(); got != want {
		t.Fatalf("Stats = %+v, want %+v", got, want)
	}
}

func TestNegativeSizeCountsAsZero(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{MaxBytes: 10, SizeOf: func(string) int64 { return -5 }})
	c.Add("a", "x")
	if got := c.Stats().Bytes; got != 0 {
		t.Fatalf("Bytes = %d, want 0", got)
	}
}
