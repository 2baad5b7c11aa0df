// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
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
	<-arrived // the first holds the slot; wait until the second is queued
	deadline := time.Now().Add(5 * time.Second)
	for c.doer.cap.waiting.Load() != 1 && time.Now().Before(deadline) {
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
