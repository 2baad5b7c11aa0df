// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
)

// maxConnections bounds the connections the server keeps open at once.
// Each costs about 15 KiB before it has sent a byte (its goroutine and read
// buffer), so without a bound 18,000 connections that never finish their
// headers held 288 MiB until the header timeout. 2,048 are about 30 MiB,
// and far more than a team's clients or an ingress's pool need.
const maxConnections = 2048

// connGuard keeps the open connections within a bound without refusing a
// newcomer: when one too many is open, the oldest other connection that
// has not sent a request yet is closed (a caller that is slow to send its headers
// is the likeliest attacker; a real client sends them within
// milliseconds), else the oldest idle keep-alive connection (its client
// just dials again). Connections serving a request are never closed. It is
// the http.Server's ConnState hook.
//
// A connection whose answer ends it (a front-door refusal sends
// Connection: close) still counts while net/http waits for the client to
// read the answer before closing it (half a second); such connections are
// closed first, so a flood of refused requests cannot push out a verified
// caller's idle keep-alive connection (its next request would fail).
type connGuard struct {
	max     int
	mu      sync.Mutex
	open    int
	closing *list.List // connections whose answer ends them, oldest first
	fresh   *list.List // connections that have not sent a request, oldest first
	pending *list.List // unverified callers' requests whose body has not come, oldest first
	idle    *list.List // idle keep-alive connections, oldest first
	where   map[net.Conn]*list.Element
}

func newConnGuard(max int) *connGuard {
	return &connGuard{max: max, closing: list.New(), fresh: list.New(), pending: list.New(), idle: list.New(), where: map[net.Conn]*list.Element{}}
}

// connKey is the context key of the connection a request came on.
type connKey struct{}

// guardedConn is a connection and the guard that follows it.
type guardedConn struct {
	guard *connGuard
	conn  net.Conn
}

// connContext is the http.Server's ConnContext hook: every request on c
// can tell the guard that its answer ends c (markClosing).
func (g *connGuard) connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, guardedConn{guard: g, conn: c})
}

// markClosing tells the guard that r's answer ends its connection, which
// makes the connection the first to close when the bound is reached.
func markClosing(r *http.Request) {
	if gc, ok := r.Context().Value(connKey{}).(guardedConn); ok {
		gc.guard.closingNow(gc.conn)
	}
}

// markPending tells the guard that r, a request with a body, is not yet
// known to be a verified caller's with its body read (watchPending): until
// the returned function is called (the caller verified, the body read, or
// the request ended),
// its connection is closed before any idle keep-alive connection when the
// bound is reached. Without it, thousands of unverified requests whose
// declared bodies never come held every place, and the only connections
// left to close were verified callers' idle ones, whose next request then
// failed (EOF or a reset) although it had done nothing wrong.
func markPending(r *http.Request) (done func()) {
	gc, ok := r.Context().Value(connKey{}).(guardedConn)
	if !ok {
		return func() {}
	}
	g := gc.guard
	g.mu.Lock()
	var mine *list.Element
	if _, tracked := g.where[gc.conn]; !tracked {
		mine = g.pending.PushBack(gc.conn)
		g.where[gc.conn] = mine
	}
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if mine != nil && g.where[gc.conn] == mine {
				g.pending.Remove(mine)
				delete(g.where, gc.conn)
			}
		})
	}
}

// closingNow puts c on the list of connections closed first.
func (g *connGuard) closingNow(c net.Conn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.forget(c)
	g.where[c] = g.closing.PushBack(c)
}

// track follows a connection through its states.
func (g *connGuard) track(c net.Conn, state http.ConnState) {
	g.mu.Lock()
	var evict net.Conn
	switch state {
	case http.StateNew:
		g.open++
		if g.open > g.max {
			// Chosen before the newcomer joins the list: it would be the
			// only silent connection when idle ones fill the bound.
			evict = g.oldestEvictable()
		}
		g.where[c] = g.fresh.PushBack(c)
	case http.StateActive:
		g.forget(c)
	case http.StateIdle:
		g.forget(c)
		g.where[c] = g.idle.PushBack(c)
	case http.StateClosed, http.StateHijacked:
		g.forget(c)
		g.open--
	}
	g.mu.Unlock()
	if evict != nil {
		_ = evict.Close() // the server then reports StateClosed for it
	}
}

// oldestEvictable takes the oldest closing, else fresh, else pending,
// else idle connection off its list.
func (g *connGuard) oldestEvictable() net.Conn {
	for _, l := range []*list.List{g.closing, g.fresh, g.pending, g.idle} {
		if e := l.Front(); e != nil {
			c := l.Remove(e).(net.Conn)
			delete(g.where, c)
			return c
		}
	}
	return nil
}

// forget takes c off whichever list holds it.
func (g *connGuard) forget(c net.Conn) {
	if e, ok := g.where[c]; ok {
		// Remove leaves a list alone unless the element is in it.
		g.closing.Remove(e)
		g.fresh.Remove(e)
		g.pending.Remove(e)
		g.idle.Remove(e)
		delete(g.where, c)
	}
}
