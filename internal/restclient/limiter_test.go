// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestConcurrencyCap: with a cap of 1, a second request waits for the first
// (within its deadline), a third is refused at once (Error.Busy) and a
// retry hint, and nothing is refused once the slot is free.
func TestConcurrencyCap(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	arrived := make(chan struct{}, 3)
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release
		writeJSON(w, 200, healthJSON)
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Concurrency, cfg.Retries = 1, -1 })
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); _, err := c.Health(ctx); errs <- err }()
	}
	// The first holds the slot; wait until the second is queued (no
	// deadline: it queues, however slowly).
	<-arrived
	for c.doer.cap.waiting.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	_, err := c.Health(ctx)
	e, ok := AsError(err)
	if !ok || !e.Busy || e.RetryAfter <= 0 {
		t.Fatalf("third request: %v, want busy with a retry hint", err)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a waiting request failed: %v", err)
		}
	}
	if rec.count() != 2 {
		t.Fatalf("Dagu saw %d requests, want 2", rec.count())
	}
}

// fakeBudget is an in-memory SharedBudget whose answer the test sets: the
// shared state's semaphore itself is tested against a real Redis in
// internal/sharedstate.
type fakeBudget struct {
	mu       sync.Mutex
	busy     bool
	err      error
	taken    int
	released int
}

func (f *fakeBudget) Acquire(context.Context) (func(), bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy || f.err != nil {
		return nil, f.busy, f.err
	}
	f.taken++
	return func() { f.mu.Lock(); f.released++; f.mu.Unlock() }, false, nil
}

// TestSharedBudget: a request holds a slot of the shared budget while it
// runs; an exhausted budget refuses it with KindBusy before Dagu sees it
// (and frees the local slot); a budget that cannot decide leaves the
// request to the local cap.
func TestSharedBudget(t *testing.T) {
	cases := []struct {
		name       string
		budget     *fakeBudget
		wantBusy   bool
		wantCalls  int
		wantLeases int
	}{
		{"a slot is taken and given back", &fakeBudget{}, false, 2, 2},
		{"exhausted budget refuses", &fakeBudget{busy: true}, true, 0, 0},
		{"unavailable budget: the local cap holds", &fakeBudget{err: errors.New("shared state unavailable")}, false, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
			budget := c.budget
			client := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Concurrency, cfg.Retries, cfg.SharedBudget = 1, -1, budget })
			for range 2 { // the second request finds the local slot free again
				_, err := client.Health(context.Background())
				e, busy := AsError(err)
				busy = busy && e.Busy
				if busy != c.wantBusy || (!c.wantBusy && err != nil) {
					t.Fatalf("request: %v, want busy %v", err, c.wantBusy)
				}
			}
			if rec.count() != c.wantCalls || budget.taken != c.wantLeases || budget.released != budget.taken {
				t.Fatalf("Dagu saw %d requests, budget taken %d released %d; want %d requests and %d leases, all released",
					rec.count(), budget.taken, budget.released, c.wantCalls, c.wantLeases)
			}
		})
	}
}
