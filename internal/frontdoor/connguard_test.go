// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// TestConnGuardKeepsConnectionsBounded: connections that never send their
// headers are closed, oldest first, once one too many is open, and a real
// request made meanwhile is answered (issue 28's hostile suite: 18,000
// such connections held 288 MiB).
func TestConnGuardKeepsConnectionsBounded(t *testing.T) {
	t.Parallel()
	const limit = 8
	guard, ln := guardedServer(t, limit)

	var silent []net.Conn
	for range 3 * limit {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		silent = append(silent, c)
	}
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatalf("a real request during the flood: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("a real request during the flood answered %q", body)
	}
	closed := 0
	deadline := time.Now().Add(2 * time.Second) // for the ones left open
	for _, c := range silent {
		_ = c.SetReadDeadline(deadline)
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if closed < 2*limit {
		t.Errorf("%d of %d silent connections were closed, want at least %d", closed, len(silent), 2*limit)
	}
	guard.mu.Lock()
	open := guard.open
	guard.mu.Unlock()
	if open > limit {
		t.Errorf("%d connections open, want at most %d", open, limit)
	}
}

// TestRefusalsDoNotWaitForTheBody: a refusal the front door makes before
// reading the body (no token, no key, a body too large for an unverified
// caller, a spent memory budget) is sent at once and ends the connection,
// even when the declared body never comes: net/http would otherwise read
// the rest of a small body first, keeping the connection serving (and
// out of connGuard's reach) until the read timeout.
func TestRefusalsDoNotWaitForTheBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		opts   func(*Options)
		head   string
		status string
	}{
		{"no token", func(o *Options) { o.Tokens = []string{"a-long-enough-inbound-token"} }, "Content-Length: 100\r\n", "401"},
		{"no key", func(o *Options) { o.Passthrough, o.Verify = true, goodKeyVerifier(nil) }, "Content-Length: 100\r\n", "401"},
		{"unverified body too large", func(o *Options) { o.Passthrough, o.Verify = true, goodKeyVerifier(nil) },
			"Authorization: Bearer made-up\r\nContent-Length: 9000\r\n", "413"},
		{"budget spent", func(o *Options) { o.Memory = membudget.New("test", 1) }, "Content-Length: 100\r\n", "503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := Options{MCP: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), Listen: "127.0.0.1:0"}
			tt.opts(&o)
			front, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(front)
			t.Cleanup(ts.Close)
			c, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			host := ts.Listener.Addr().String()
			if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\n"+tt.head+"\r\n"); err != nil {
				t.Fatal(err)
			}
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			answer, err := io.ReadAll(c)
			if err != nil {
				t.Fatalf("no answer and no close while the body is missing: %v (read %q)", err, answer)
			}
			if !strings.HasPrefix(string(answer), "HTTP/1.1 "+tt.status+" ") {
				t.Fatalf("answer %q, want %s", answer, tt.status)
			}
		})
	}
}

// TestConnGuardNeverClosesTheNewcomer: with the bound reached by idle
// keep-alive connections, a new connection closes the oldest of them, not
// itself (5,000 idle connections, each after one GET /healthz, left a new
// caller 2 of 79 requests).
func TestConnGuardNeverClosesTheNewcomer(t *testing.T) {
	t.Parallel()
	const limit = 4
	_, ln := guardedServer(t, limit)
	addr := ln.Addr().String()
	for range limit {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: "+addr+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 512)); err != nil {
			t.Fatal(err)
		}
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	for i := range 3 {
		resp, err := client.Get("http://" + addr + "/")
		if err != nil {
			t.Fatalf("request %d with %d idle connections open: %v", i, limit, err)
		}
		resp.Body.Close()
	}
}

// guardedServer serves "ok" on a loopback listener with a connGuard of
// limit connections, until the test ends.
func guardedServer(t *testing.T, limit int) (*connGuard, net.Listener) {
	t.Helper()
	guard := newConnGuard(limit)
	srv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }),
		ReadHeaderTimeout: time.Minute,
		ConnState:         guard.track,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return guard, ln
}

// TestConnGuardClosesEndingConnectionsFirst: at the bound, a connection
// whose answer ends it (a refusal with Connection: close, which net/http
// keeps for half a second) is closed before a verified caller's idle
// keep-alive connection (a flood of refused 1 MiB bodies made the guard
// close the victim's idle connection, and its next read failed with EOF:
// 71 of 92 reads in CI).
func TestConnGuardClosesEndingConnectionsFirst(t *testing.T) {
	t.Parallel()
	g := newConnGuard(2)
	victim, refused, newcomer := idleAndActive(t, g)
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	markClosing(req.WithContext(g.connContext(req.Context(), refused)))
	g.track(newcomer, http.StateNew)
	_ = refused.SetWriteDeadline(time.Now().Add(time.Second))
	if _, err := refused.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("writing to the refused connection: %v, want it closed", err)
	}
	g.mu.Lock()
	_, victimKept := g.where[victim]
	g.mu.Unlock()
	if !victimKept {
		t.Error("the victim's idle connection was closed before the refused one")
	}
}

// TestConnGuardClosesPendingBeforeIdle: at the bound, an unverified
// caller's request still waiting for memory or for its body is closed
// before a verified caller's idle keep-alive connection (2,200 made-up
// bearers whose declared bodies never came held every place while they
// waited for memory, and the guard closed the victim's idle connection:
// its reads failed with EOF or a reset, 64 of 89 succeeding); once the
// body has been read, the request is no longer the first to go.
func TestConnGuardClosesPendingBeforeIdle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		bodyRead     bool
		wantPending  bool // the pending connection survives the newcomer
		wantVictimUp bool
	}{
		{name: "body still awaited", bodyRead: false, wantPending: false, wantVictimUp: true},
		{name: "body read", bodyRead: true, wantPending: true, wantVictimUp: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newConnGuard(2)
			victim, pending, newcomer := idleAndActive(t, g)
			req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			done := markPending(req.WithContext(g.connContext(req.Context(), pending)))
			if tc.bodyRead {
				done()
			}
			g.track(newcomer, http.StateNew)
			g.mu.Lock()
			_, victimUp := g.where[victim]
			_, pendingListed := g.where[pending]
			g.mu.Unlock()
			if victimUp != tc.wantVictimUp {
				t.Errorf("victim's idle connection kept: %v, want %v", victimUp, tc.wantVictimUp)
			}
			if tc.wantPending && pendingListed {
				t.Error("a request whose body was read is still on a list of closable connections")
			}
			_ = pending.SetWriteDeadline(time.Now().Add(time.Second))
			_, err := pending.Write([]byte("x"))
			closed := errors.Is(err, io.ErrClosedPipe)
			if closed == tc.wantPending {
				t.Errorf("pending connection closed: %v, want %v", closed, !tc.wantPending)
			}
		})
	}
}

// idleAndActive fills a guard of two connections: a verified caller's idle
// keep-alive connection and one serving a request; the third connection,
// not yet tracked, is the newcomer that reaches the bound.
func idleAndActive(t *testing.T, g *connGuard) (idle, active, newcomer net.Conn) {
	t.Helper()
	pipe := func() net.Conn {
		a, b := net.Pipe()
		t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
		return a
	}
	idle, active, newcomer = pipe(), pipe(), pipe()
	g.track(idle, http.StateNew)
	g.track(idle, http.StateActive)
	g.track(idle, http.StateIdle)
	g.track(active, http.StateNew)
	g.track(active, http.StateActive)
	return idle, active, newcomer
}
