// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestConnGuardKeepsConnectionsBounded: connections that never send their
// headers are closed, oldest first, once one too many is open, and a real
// request made meanwhile is answered (issue 28's hostile suite: 18,000
// such connections held 288 MiB).
func TestConnGuardKeepsConnectionsBounded(t *testing.T) {
	t.Parallel()
	const limit = 8
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
