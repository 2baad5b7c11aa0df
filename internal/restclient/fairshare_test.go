// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSlowServerLeavesSlotsToTheOthers: two clients sharing Limits of 4
// slots each hold at most 2 in flight and 2 waiting, so a Dagu server that
// never answers leaves slots to the other; once the other client is
// closed, the slow one may hold every slot.
func TestSlowServerLeavesSlotsToTheOthers(t *testing.T) {
	t.Parallel()
	release, arrived := make(chan struct{}), make(chan struct{}, 10)
	slowSrv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release
		writeJSON(w, 200, healthJSON)
	})
	fastSrv, _ := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
	limits := NewLimits(Config{Concurrency: 4})
	shared := func(cfg *Config) { cfg.Limits, cfg.Retries = limits, -1 }
	slow, fast := newTestClient(t, slowSrv.URL, shared), newTestClient(t, fastSrv.URL, shared)
	ctx := context.Background()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	for range 3 {
		wg.Go(func() { _, _ = slow.Health(ctx) })
	}
	<-arrived
	<-arrived
	fastDone := make(chan error, 1)
	go func() { _, err := fast.Health(ctx); fastDone <- err }()
	select {
	case <-arrived:
		t.Fatal("a third call to the slow server got a slot")
	case err := <-fastDone:
		if err != nil {
			t.Fatalf("the other server's call: %v", err)
		}
	}
	wg.Go(func() { _, _ = slow.Health(ctx) })
	for slow.doer.cap.waiting.Load() != 2 {
		time.Sleep(time.Millisecond)
	}
	_, err := slow.Health(ctx)
	if e, ok := AsError(err); !ok || !e.Busy || !strings.Contains(e.Excerpt, "share") {
		t.Fatalf("a fifth call to the slow server: %v, want busy (its share is taken)", err)
	}
	fast.Close()
	<-arrived // alone, the slow server's client holds every slot
	<-arrived
}
