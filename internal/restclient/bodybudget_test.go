// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// endless is a body that never ends: every read fills p.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func (endless) Close() error { return nil }

// TestDeclaredOversizeAnswerIsRefusedBeforeReading: an answer whose
// Content-Length is over the cap is refused from its headers. The hostile
// server sends 1 KiB of the 100 MB it declares and then stalls, so a client
// that reads the body before deciding ends in a timeout, not too_large.
func TestDeclaredOversizeAnswerIsRefusedBeforeReading(t *testing.T) {
	t.Parallel()
	stall := make(chan struct{})
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(100<<20))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"status":"` + string(make([]byte, 1024))))
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(stall) })
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Timeout = time.Minute; cfg.Retries = -1 })
	_, err := c.Health(context.Background())
	if kindOf(err) != "too_large" {
		t.Fatalf("err = %v, want too_large from the declared length", err)
	}
}

// TestBodyBudgetRefusesArrivingBytesPastIt: bodies without a declared
// length draw on the one budget as their bytes arrive; past it a body is
// refused as busy, and the budget comes back when a body is closed.
func TestBodyBudgetRefusesArrivingBytesPastIt(t *testing.T) {
	t.Parallel()
	budget := newBodyBudget(1<<20, nil)
	open := func() *cappedBody {
		return newCappedBody(context.Background(), endless{}, RouteHealth, 32<<20, func() {}, budget, -1)
	}
	first, second := open(), open()
	if _, err := io.ReadFull(first, make([]byte, 768<<10)); err != nil {
		t.Fatalf("first body within the budget: %v", err)
	}
	_, err := io.ReadFull(second, make([]byte, 512<<10))
	if e, ok := AsError(err); !ok || !e.Busy || e.RetryAfter <= 0 {
		t.Fatalf("second body past the budget: err = %v, want busy with a retry delay", err)
	}
	second.Close()
	first.Close()
	third := open()
	defer third.Close()
	if _, err := io.ReadFull(third, make([]byte, 1<<20)); err != nil {
		t.Fatalf("the budget was not returned on close: %v", err)
	}
}

// TestDeclaredBodiesWaitForTheBudget: a body with a declared length
// reserves it whole before it is read; another waits within its deadline
// until the first is closed, and the budget is whole again afterwards.
func TestDeclaredBodiesWaitForTheBudget(t *testing.T) {
	t.Parallel()
	budget := newBodyBudget(1<<20, nil)
	ctx := context.Background()
	if err := budget.reserveDeclared(ctx, RouteHealth, 768<<10); err != nil {
		t.Fatal(err)
	}
	first := newCappedBody(ctx, endless{}, RouteHealth, 32<<20, func() {}, budget, 768<<10)
	if err := budget.reserveDeclared(ctx, RouteHealth, 2<<20); kindOf(err) != "busy" {
		t.Fatalf("a body larger than the whole budget: err = %v, want busy", err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var waited error
	go func() {
		defer wg.Done()
		waited = budget.reserveDeclared(ctx, RouteHealth, 512<<10)
	}()
	first.Close()
	wg.Wait()
	if waited != nil {
		t.Fatalf("declared body after the first closed: %v", waited)
	}
	budget.release(ctx, 512<<10)
	if !budget.sem.TryAcquire(1 << 20) {
		t.Fatal("the budget is not whole after every body was closed")
	}
}

// TestHostileAnswersStayWithinTheBudget: concurrent chunked answers far
// over the cap all fail (too large or busy), and afterwards the budget is
// whole: no failed read keeps any of it.
func TestHostileAnswersStayWithinTheBudget(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := make([]byte, 64<<10)
		for i := range chunk {
			chunk[i] = ' '
		}
		for sent := 0; sent < 8<<20 && r.Context().Err() == nil; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	c := newTestClient(t, srv.URL, func(cfg *Config) {
		cfg.MaxResponseBytes, cfg.BodyBudget, cfg.Retries = 1<<20, 2<<20, -1
	})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Health(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if k := kindOf(err); k != "too_large" && k != "busy" {
			t.Errorf("read %d: err = %v, want too_large or busy", i, err)
		}
	}
	if !c.doer.bodies.sem.TryAcquire(2 << 20) {
		t.Fatal("failed reads kept part of the body budget")
	}
}

// TestBodiesDrawOnTheMemoryBudget: what bodies hold is taken from the
// process's memory budget too; a body that finds it spent is refused as
// busy at once (declared or arriving), and closing gives back to both.
func TestBodiesDrawOnTheMemoryBudget(t *testing.T) {
	t.Parallel()
	memory := membudget.New("memory", 1<<20)
	budget := newBodyBudget(1<<20, memory)
	held, _ := memory.Reserve(512 << 10) // requests in flight hold half of it
	ctx := context.Background()
	if err := budget.reserveDeclared(ctx, RouteHealth, 768<<10); kindOf(err) != "busy" {
		t.Fatalf("declared body past the memory budget: err = %v, want busy", err)
	}
	arriving := newCappedBody(ctx, endless{}, RouteHealth, 32<<20, func() {}, budget, -1)
	if _, err := io.ReadFull(arriving, make([]byte, 768<<10)); kindOf(err) != "busy" {
		t.Fatalf("arriving body past the memory budget: err = %v, want busy", err)
	}
	arriving.Close()
	if memory.InUse() != 512<<10 {
		t.Fatalf("memory in use after the refusals: %d", memory.InUse())
	}
	held.Release()
	if err := budget.reserveDeclared(ctx, RouteHealth, 768<<10); err != nil || memory.InUse() != 768<<10 {
		t.Fatalf("declared body within both: %v, memory in use %d", err, memory.InUse())
	}
	budget.release(ctx, 768<<10)
	if memory.InUse() != 0 || !budget.sem.TryAcquire(1<<20) {
		t.Fatalf("not whole again: memory in use %d", memory.InUse())
	}
}

// TestBodiesCountAgainstTheirCallersShare: a body read for a request
// draws on the request's reservation, so it counts against the caller's
// share: a body of a caller whose share is spent is refused as busy while
// another caller's body of the same size is read; closing gives back.
func TestBodiesCountAgainstTheirCallersShare(t *testing.T) {
	t.Parallel()
	memory := membudget.New("memory", 4<<20)
	memory.RaiseFloor(1 << 20)
	budget := newBodyBudget(4<<20, memory)
	reserve := func(caller string, n int64) (*membudget.Reservation, context.Context) {
		r, err := memory.ReserveFor(context.Background(), membudget.Owner{Caller: caller}, n, false)
		if err != nil {
			t.Fatal(err)
		}
		return r, membudget.WithReservation(context.Background(), r)
	}
	hog, hogCtx := reserve("hog", 2<<20) // alone: at most the budget less one largest read, 3 MiB
	other, otherCtx := reserve("other", 1<<10)
	if err := budget.reserveArriving(hogCtx, RouteHealth, 1<<20); kindOf(err) != "busy" {
		t.Fatalf("a body past the hog's share: err = %v, want busy", err)
	}
	if err := budget.reserveArriving(otherCtx, RouteHealth, 1<<20); err != nil || other.Held() != 1<<10+1<<20 {
		t.Fatalf("another caller's body: %v, its reservation holds %d", err, other.Held())
	}
	budget.release(otherCtx, 1<<20)
	other.Release()
	hog.Release()
	if memory.InUse() != 0 || !budget.sem.TryAcquire(4<<20) {
		t.Fatalf("not whole again: memory in use %d", memory.InUse())
	}
}
