// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestClientsShareLimits: clients given one Limits draw on one cap and one
// body budget; clients without it have their own.
func TestClientsShareLimits(t *testing.T) {
	t.Parallel()
	limits := NewLimits(Config{Concurrency: 3, BodyBudget: 1 << 20})
	a, err := New(Config{BaseURL: "http://a.example", Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Config{BaseURL: "http://b.example", Limits: limits, Concurrency: 99})
	if err != nil {
		t.Fatal(err)
	}
	own, err := New(Config{BaseURL: "http://c.example"})
	if err != nil {
		t.Fatal(err)
	}
	if a.doer.cap != b.doer.cap || a.doer.bodies != b.doer.bodies {
		t.Fatal("clients given one Limits have their own caps")
	}
	if a.doer.cap.limit != 3 || a.doer.bodies.total != 1<<20 {
		t.Fatalf("cap %d, body budget %d", a.doer.cap.limit, a.doer.bodies.total)
	}
	if own.doer.cap == a.doer.cap || own.doer.bodies == a.doer.bodies {
		t.Fatal("a client without Limits shares another's")
	}
}

// TestCloseIdleConnections: a client's idle connections are closed, and
// the client still works afterwards.
func TestCloseIdleConnections(t *testing.T) {
	t.Parallel()
	var opened atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"healthy"}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	probe := func() {
		if res := c.ProbeReachable(context.Background()); !res.OK {
			t.Fatalf("probe: %+v", res)
		}
	}
	probe()
	probe()
	if opened.Load() != 1 {
		t.Fatalf("%d connections for two probes, want one kept alive", opened.Load())
	}
	c.CloseIdleConnections()
	probe()
	if opened.Load() != 2 {
		t.Fatalf("%d connections after closing the idle one, want a new one", opened.Load())
	}
}
