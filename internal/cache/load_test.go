// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestGetOrLoadConcurrentMissesShareOneLoad(t *testing.T) {
	t.Parallel()
	const callers = 50
	c := newStringCache(t, Options[string]{})
	var joined sync.WaitGroup
	joined.Add(callers)
	c.flights.joined = joined.Done
	release := make(chan struct{})
	var loads atomic.Int32
	load := func(context.Context) (string, error) {
		loads.Add(1)
		<-release
		return "loaded", nil
	}

	results := make(chan string, callers)
	errs := make(chan error, callers)
	for range callers {
		go func() {
			v, err := c.GetOrLoad(context.Background(), "k", load)
			results <- v
			errs <- err
		}()
	}
	joined.Wait() // every caller waits on the flight before it may finish
	close(release)
	for range callers {
		if err := <-errs; err != nil {
			t.Errorf("GetOrLoad error: %v", err)
		}
		if v := <-results; v != "loaded" {
			t.Errorf("GetOrLoad = %q, want \"loaded\"", v)
		}
	}
	if n := loads.Load(); n != 1 {
		t.Fatalf("load ran %d times, want 1", n)
	}
	want := Stats{Misses: callers, Entries: 1}
	if got := c.Stats(); got != want {
		t.Fatalf("Stats = %+v, want %+v", got, want)
	}
	if n := c.flights.keys.held(); n != 0 {
		t.Fatalf("%d flight names still held", n)
	}
}

func TestGetOrLoadOutcomes(t *testing.T) {
	t.Parallel()
	errBoom := errors.New("boom")
	tests := []struct {
		name       string
		load       func(context.Context) (string, error)
		wantValue  string
		wantErr    error
		wantCached bool
	}{
		{
			name:       "value is stored",
			load:       func(context.Context) (string, error) { return "v", nil },
			wantValue:  "v",
			wantCached: true,
		},
		{
			name:    "error is returned and not stored",
			load:    func(context.Context) (string, error) { return "partial", errBoom },
			wantErr: errBoom,
		},
		{
			name:    "panic becomes an error",
			load:    func(context.Context) (string, error) { panic("bad loader") },
			wantErr: ErrLoadPanicked,
		},
		{
			name:      "value above MaxBytes is returned but not stored",
			load:      func(context.Context) (string, error) { return "much too long", nil },
			wantValue: "much too long",
		},
		{
			name: "load runs under its own deadline",
			load: func(ctx context.Context) (string, error) {
				<-ctx.Done()
				return "", ctx.Err()
			},
			wantErr: context.DeadlineExceeded,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newStringCache(t, Options[string]{
				MaxBytes: 4, SizeOf: byteLen, LoadTimeout: time.Millisecond,
			})
			v, err := c.GetOrLoad(context.Background(), "k", tt.load)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			if v != tt.wantValue {
				t.Fatalf("value = %q, want %q", v, tt.wantValue)
			}
			if _, cached := c.lookup("k"); cached != tt.wantCached {
				t.Fatalf("cached = %v, want %v", cached, tt.wantCached)
			}
		})
	}
}

func TestGetOrLoadErrorIsRetried(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{})
	calls := 0
	load := func(context.Context) (string, error) {
		calls++
		if calls == 1 {
			return "", errors.New("first call fails")
		}
		return "ok", nil
	}
	if _, err := c.GetOrLoad(context.Background(), "k", load); err == nil {
		t.Fatal("first GetOrLoad: want an error")
	}
	v, err := c.GetOrLoad(context.Background(), "k", load)
	if err != nil || v != "ok" {
		t.Fatalf("second GetOrLoad = %q, %v; want \"ok\", nil", v, err)
	}
	if calls != 2 {
		t.Fatalf("load ran %d times, want 2", calls)
	}
}

func TestGetOrLoadHitSkipsLoad(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{})
	c.Add("k", "cached")
	v, err := c.GetOrLoad(context.Background(), "k", func(context.Context) (string, error) {
		t.Error("load ran on a hit")
		return "", nil
	})
	if err != nil || v != "cached" {
		t.Fatalf("GetOrLoad = %q, %v; want \"cached\", nil", v, err)
	}
	if got := c.Stats(); got.Hits != 1 || got.Misses != 0 {
		t.Fatalf("Stats = %+v, want 1 hit and 0 misses", got)
	}
}

func TestCanceledCallerDoesNotCancelSharedLoad(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{})
	var joined sync.WaitGroup
	c.flights.joined = joined.Done
	started := make(chan struct{})
	release := make(chan struct{})
	loadErr := make(chan error, 1)
	load := func(ctx context.Context) (string, error) {
		close(started)
		<-release
		loadErr <- ctx.Err()
		return "shared", nil
	}

	firstCtx, cancelFirst := context.WithCancel(context.Background())
	firstDone := make(chan error, 1)
	joined.Add(1)
	go func() {
		_, err := c.GetOrLoad(firstCtx, "k", load)
		firstDone <- err
	}()
	<-started
	joined.Wait()

	secondDone := make(chan string, 1)
	joined.Add(1)
	go func() {
		v, _ := c.GetOrLoad(context.Background(), "k", load)
		secondDone <- v
	}()
	joined.Wait()

	cancelFirst()
	if err := <-firstDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller error = %v, want context.Canceled", err)
	}
	close(release)
	if err := <-loadErr; err != nil {
		t.Fatalf("shared load saw ctx error %v after the first caller left", err)
	}
	if v := <-secondDone; v != "shared" {
		t.Fatalf("second caller got %q, want \"shared\"", v)
	}
	if v, ok := c.Get("k"); !ok || v != "shared" {
		t.Fatalf("Get after load = %q, %v; want \"shared\", true", v, ok)
	}
}

func TestLoadKeepsCallerContextValues(t *testing.T) {
	t.Parallel()
	type ctxKey struct{}
	c := newStringCache(t, Options[string]{})
	ctx := context.WithValue(context.Background(), ctxKey{}, "request-42")
	v, err := c.GetOrLoad(ctx, "k", func(ctx context.Context) (string, error) {
		s, _ := ctx.Value(ctxKey{}).(string)
		return s, nil
	})
	if err != nil || v != "request-42" {
		t.Fatalf("GetOrLoad = %q, %v; want the caller's context value", v, err)
	}
}

func TestDistinctPointerKeysDoNotShareLoads(t *testing.T) {
	t.Parallel()
	type key struct{ id string }
	c, err := New[*key, string](Options[string]{MaxEntries: 10, TTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	a, b := &key{id: "same"}, &key{id: "same"}
	var joined sync.WaitGroup
	joined.Add(2)
	c.flights.joined = joined.Done
	release := make(chan struct{})
	loader := func(v string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) {
			<-release
			return v, nil
		}
	}
	got := make(chan [2]string, 2)
	go func() {
		v, _ := c.GetOrLoad(context.Background(), a, loader("a"))
		got <- [2]string{"a", v}
	}()
	go func() {
		v, _ := c.GetOrLoad(context.Background(), b, loader("b"))
		got <- [2]string{"b", v}
	}()
	joined.Wait()
	close(release)
	for range 2 {
		r := <-got
		if r[0] != r[1] {
			t.Fatalf("caller for key %s got the value loaded for %s", r[0], r[1])
		}
	}
}

func TestNilInterfaceValue(t *testing.T) {
	t.Parallel()
	c, err := New[string, error](Options[error]{MaxEntries: 1, TTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.GetOrLoad(context.Background(), "k", func(context.Context) (error, error) {
		return nil, nil
	})
	if err != nil || v != nil {
		t.Fatalf("GetOrLoad = %v, %v; want nil, nil", v, err)
	}
}

func TestGetOrLoadWithEndedContext(t *testing.T) {
	t.Parallel()
	c := newStringCache(t, Options[string]{})
	c.Add("cached", "v")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	load := func(context.Context) (string, error) {
		t.Error("load ran for a caller that had already gone")
		return "", nil
	}
	if v, err := c.GetOrLoad(ctx, "cached", load); err != nil || v != "v" {
		t.Fatalf("GetOrLoad(cached) = %q, %v; a hit needs no live context", v, err)
	}
	if _, err := c.GetOrLoad(ctx, "missing", load); !errors.Is(err, context.Canceled) {
		t.Fatalf("GetOrLoad(missing) error = %v, want context.Canceled", err)
	}
}
