// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

const (
	staleTTL = time.Minute
	staleFor = time.Minute
)

// newStaleCache is a string cache with a one-minute TTL and stale window
// on a fake clock, holding "old" under "k".
func newStaleCache(t *testing.T) (*Cache[string, string], *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	c := newStringCache(t, Options[string]{TTL: staleTTL, StaleFor: staleFor, Now: clock.Now, LoadTimeout: time.Hour})
	c.Add("k", "old")
	return c, clock
}

// countingLoad returns a load that counts its runs and answers "new".
func countingLoad(n *atomic.Int32) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		n.Add(1)
		return "new", nil
	}
}

func getStale(t *testing.T, c *Cache[string, string], load func(context.Context) (string, error)) string {
	t.Helper()
	v, err := c.GetOrLoadStale(context.Background(), context.Background(), "k", load)
	if err != nil {
		t.Fatalf("GetOrLoadStale: %v", err)
	}
	return v
}

func TestGetOrLoadStaleByAge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		age       time.Duration // since "old" was stored
		want      string        // what the read answers
		wantLoads int32
	}{
		{"fresh value, no load", staleTTL - time.Nanosecond, "old", 0},
		{"just expired: stale value, one background load", staleTTL, "old", 1},
		{"end of the window: stale value, one background load", staleTTL + staleFor - time.Nanosecond, "old", 1},
		{"past the window: inline load", staleTTL + staleFor, "new", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, clock := newStaleCache(t)
			clock.Advance(tt.age)
			var loads atomic.Int32
			if got := getStale(t, c, countingLoad(&loads)); got != tt.want {
				t.Fatalf("read = %q, want %q", got, tt.want)
			}
			c.WaitRefreshes()
			if n := loads.Load(); n != tt.wantLoads {
				t.Fatalf("load ran %d times, want %d", n, tt.wantLoads)
			}
			if tt.wantLoads == 1 {
				if v, ok := c.Get("k"); !ok || v != "new" {
					t.Fatalf("after the load Get = %q, %v; want \"new\", true", v, ok)
				}
			}
		})
	}
}

func TestGetOrLoadStaleConcurrentHitsShareOneLoad(t *testing.T) {
	t.Parallel()
	const callers = 50
	c, clock := newStaleCache(t)
	clock.Advance(staleTTL)
	release := make(chan struct{})
	var loads atomic.Int32
	load := func(context.Context) (string, error) {
		loads.Add(1)
		<-release // holds the refresh while every caller reads
		return "new", nil
	}
	var readers sync.WaitGroup
	for range callers {
		readers.Go(func() {
			if v := getStale(t, c, load); v != "old" {
				t.Errorf("read = %q, want the stale \"old\"", v)
			}
		})
	}
	readers.Wait() // every read answered while the refresh is held
	close(release)
	c.WaitRefreshes()
	if n := loads.Load(); n != 1 {
		t.Fatalf("load ran %d times, want 1", n)
	}
	if v := getStale(t, c, load); v != "new" {
		t.Fatalf("read after the refresh = %q, want \"new\"", v)
	}
}

func TestGetOrLoadStaleFailedRefreshIsRetried(t *testing.T) {
	t.Parallel()
	c, clock := newStaleCache(t)
	clock.Advance(staleTTL)
	var loads atomic.Int32
	failing := func(context.Context) (string, error) {
		loads.Add(1)
		return "", errors.New("upstream down")
	}
	if v := getStale(t, c, failing); v != "old" {
		t.Fatalf("read = %q, want \"old\"", v)
	}
	c.WaitRefreshes()
	if v := getStale(t, c, countingLoad(&loads)); v != "old" {
		t.Fatalf("read after a failed refresh = %q, want the stale \"old\"", v)
	}
	c.WaitRefreshes()
	if n := loads.Load(); n != 2 {
		t.Fatalf("load ran %d times, want 2 (the failure and its retry)", n)
	}
	if v, ok := c.Get("k"); !ok || v != "new" {
		t.Fatalf("after the retry Get = %q, %v; want \"new\", true", v, ok)
	}
}

func TestGetOrLoadStaleRefreshOutlivesCaller(t *testing.T) {
	t.Parallel()
	c, clock := newStaleCache(t)
	clock.Advance(staleTTL)
	started, release := make(chan struct{}), make(chan struct{})
	load := func(ctx context.Context) (string, error) {
		close(started)
		<-release
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "new", nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	if v, err := c.GetOrLoadStale(ctx, context.Background(), "k", load); err != nil || v != "old" {
		t.Fatalf("read = %q, %v; want \"old\"", v, err)
	}
	<-started
	cancel() // the caller leaves before the refresh ends
	close(release)
	c.WaitRefreshes()
	if v, ok := c.Get("k"); !ok || v != "new" {
		t.Fatalf("after the refresh Get = %q, %v; want \"new\", true", v, ok)
	}
}

func TestGetOrLoadStaleRefreshEndsWithBase(t *testing.T) {
	t.Parallel()
	c, clock := newStaleCache(t)
	clock.Advance(staleTTL)
	var loadErr error
	load := func(ctx context.Context) (string, error) {
		<-ctx.Done() // only the end of base ends it (LoadTimeout is an hour)
		loadErr = ctx.Err()
		return "", loadErr
	}
	base, stop := context.WithCancel(context.Background())
	if v, err := c.GetOrLoadStale(context.Background(), base, "k", load); err != nil || v != "old" {
		t.Fatalf("read = %q, %v; want \"old\"", v, err)
	}
	stop()
	c.WaitRefreshes()
	if !errors.Is(loadErr, context.Canceled) {
		t.Fatalf("load ended with %v, want context.Canceled", loadErr)
	}
	if v, ok := c.Peek("k"); ok {
		t.Fatalf("Peek = %q, want no fresh value", v)
	}
	if v := getStale(t, c, countingLoad(new(atomic.Int32))); v != "old" {
		t.Fatalf("read after the canceled refresh = %q, want the stale \"old\"", v)
	}
	c.WaitRefreshes()
}

func TestStaleWindowKeepsExpiredValuesFromOtherReads(t *testing.T) {
	t.Parallel()
	c, clock := newStaleCache(t)
	clock.Advance(staleTTL)
	if _, ok := c.Get("k"); ok {
		t.Fatal("Get answered an expired value")
	}
	failing := func(context.Context) (string, error) { return "", errors.New("upstream down") }
	if v := getStale(t, c, failing); v != "old" {
		t.Fatalf("read after Get = %q, want the stale \"old\" still held", v)
	}
	c.WaitRefreshes()
	var loads atomic.Int32
	if v, err := c.GetOrLoad(context.Background(), "k", countingLoad(&loads)); err != nil || v != "new" {
		t.Fatalf("GetOrLoad = %q, %v; want an inline \"new\"", v, err)
	}
	c.Add("other", "x")
	clock.Advance(staleTTL + staleFor)
	c.Add("third", "y") // drops the values past their window from the cold end
	if n := c.Stats().Entries; n != 1 {
		t.Fatalf("%d entries held, want 1", n)
	}
}

func TestNewRejectsNegativeStaleFor(t *testing.T) {
	t.Parallel()
	if _, err := New[string](Options[string]{MaxEntries: 1, TTL: time.Second, StaleFor: -1}); err == nil {
		t.Fatal("New accepted a negative StaleFor")
	}
}
