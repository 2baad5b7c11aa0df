// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestSlotsAreFairBetweenCallers: with a cap of 2, caller a holds both
// slots and fills the queue; the victim's request, made for another
// verified caller (the request's context names it), takes the waiting
// place of a's newest request (refused busy) and gets the next free slot
// ahead of a's older waiting one.
func TestSlotsAreFairBetweenCallers(t *testing.T) {
	t.Parallel()
	release, arrived := make(chan struct{}), make(chan string, 8)
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		arrived <- r.Header.Get(reqctx.HeaderRequestID)
		<-release
		writeJSON(w, 200, healthJSON)
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Concurrency, cfg.Retries, cfg.Timeout = 2, -1, time.Minute })
	as := func(caller, id string) context.Context {
		return reqctx.With(context.Background(), reqctx.Info{RequestID: id, Caller: caller, Trust: reqctx.TrustVerified})
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	errs := map[string]chan error{}
	start := func(caller, id string) {
		done := make(chan error, 1)
		errs[id] = done
		wg.Go(func() { _, err := c.Health(as(caller, id)); done <- err })
	}
	waitingNow := func(n int64) {
		for c.doer.cap.waiting.Load() != n {
			time.Sleep(time.Millisecond)
		}
	}
	start("a", "a1")
	start("a", "a2")
	<-arrived
	<-arrived
	start("a", "a3")
	waitingNow(1)
	start("a", "a4")
	waitingNow(2)
	start("victim", "v1")
	err := <-errs["a4"]
	if e, ok := AsError(err); !ok || !e.Busy || !strings.Contains(e.Excerpt, "this caller's are the most") {
		t.Fatalf("a's newest waiting request: %v, want busy (the victim took its place)", err)
	}
	waitingNow(2)
	release <- struct{}{}
	if got := <-arrived; got != "v1" {
		t.Fatalf("the freed slot went to %s, want the victim's v1", got)
	}
	release <- struct{}{}
	if got := <-arrived; got != "a3" {
		t.Fatalf("the next slot went to %s, want a3", got)
	}
}

// TestCallerOf: verified callers are told apart by name, unverified ones
// share one, and work no caller's request carries is the caller "".
func TestCallerOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"no request", context.Background(), ""},
		{"stdio", reqctx.With(context.Background(), reqctx.Info{Caller: "local"}), ""},
		{"verified", reqctx.With(context.Background(), reqctx.Info{Caller: "alice", Trust: reqctx.TrustVerified}), "caller:alice"},
		{"unchecked", reqctx.With(context.Background(), reqctx.Info{Caller: "192.0.2.1", Trust: reqctx.TrustUnchecked}), "unverified"},
		{"refused", reqctx.With(context.Background(), reqctx.Info{Caller: "192.0.2.2", Trust: reqctx.TrustRefused}), "unverified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := callerOf(tc.ctx); got != tc.want {
				t.Fatalf("callerOf: %q, want %q", got, tc.want)
			}
		})
	}
}
