// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConnectionsAreReusedAtFullConcurrency keeps the configured number of
// callers busy and counts the connections the server saw opened: the
// transport may open at most its pool (connPoolSize) and must never close
// an idle connection for want of room and dial it again.
func TestConnectionsAreReusedAtFullConcurrency(t *testing.T) {
	t.Parallel()
	for _, concurrency := range []int{0, 32} {
		var dialled atomic.Int64
		callers := max(concurrency, DefaultConcurrency)
		all := newBarrier(callers)
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			all.wait() // every caller's call is on the wire at once
			writeJSON(w, 200, healthJSON)
		}))
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				dialled.Add(1)
			}
		}
		srv.Start()
		t.Cleanup(srv.Close)
		c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Concurrency = concurrency })
		const rounds = 40
		// Callers also wait for each other between rounds, so every
		// connection goes back to the idle pool before the next round.
		between := newBarrier(callers)
		var wg sync.WaitGroup
		for range callers {
			wg.Go(func() {
				for range rounds {
					if _, err := c.Health(context.Background()); err != nil {
						t.Error(err)
					}
					between.wait()
				}
			})
		}
		wg.Wait()
		if got, most := dialled.Load(), int64(connPoolSize(concurrency)); got > most {
			t.Errorf("concurrency %d: %d connections dialled for %d calls, want at most %d", concurrency, got, callers*rounds, most)
		}
	}
}

// barrier releases the requests it holds each time n of them have arrived.
type barrier struct {
	mu      sync.Mutex
	n, seen int
	round   chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, round: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	b.seen++
	round := b.round
	if b.seen == b.n {
		close(b.round)
		b.seen, b.round = 0, make(chan struct{})
	}
	b.mu.Unlock()
	<-round
}
