// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"crypto/sha256"
	"errors"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// Revocation of requests in flight. A token the token file drops (or
// whose instances no longer take the request's) is refused at once for
// new requests (the file is looked at once a second); the requests it
// has in flight are ended too: a watcher looks at the file for them as
// often, cancels their context (their calls to Dagu end) and drops what
// they write after, and a request that has written nothing yet is
// answered the 401 of a token not accepted. An answer already being
// written is cut short: no more of it is sent. So no data reaches a
// token more than about a second after the file dropped it, instead of
// up to --call-timeout.

// errTokenRevoked is the cause of a revoked request's context and the
// error of its writes.
var errTokenRevoked = errors.New("the bearer token was revoked while the request was in flight")

// revocation watches the requests in flight of file tokens.
type revocation struct {
	file     tokenMatcher
	interval time.Duration

	mu      sync.Mutex
	flights map[*flight]struct{}
	running bool
}

// flight is one request in flight of a file token.
type flight struct {
	digest [sha256.Size]byte
	note   *requestNote // its instance, once routed (nil: none)
	revoke func()
}

func newRevocation(file tokenMatcher, interval time.Duration) *revocation {
	return &revocation{file: file, interval: interval, flights: map[*flight]struct{}{}}
}

// watch adds f to the requests watched until stop is called; the watcher
// runs while any is in flight.
func (v *revocation) watch(f *flight) (stop func()) {
	v.mu.Lock()
	v.flights[f] = struct{}{}
	if !v.running {
		v.running = true
		go v.loop()
	}
	v.mu.Unlock()
	return func() {
		v.mu.Lock()
		delete(v.flights, f)
		v.mu.Unlock()
	}
}

func (v *revocation) loop() {
	ticker := time.NewTicker(v.interval)
	defer ticker.Stop()
	for range ticker.C {
		v.mu.Lock()
		if len(v.flights) == 0 {
			v.running = false
			v.mu.Unlock()
			return
		}
		flights := slices.Collect(maps.Keys(v.flights))
		v.mu.Unlock()
		v.check(flights)
	}
}

// check revokes the flights whose token the file no longer accepts for
// their instance (looking at the file when that is due).
func (v *revocation) check(flights []*flight) {
	for _, f := range flights {
		entry, ok := v.file.Lookup(f.digest)
		instance := defaultInstance
		if f.note != nil {
			if name := f.note.instance.Load(); name != nil {
				instance = *name
			}
		}
		if !ok || !instanceScope(entry.Instances).allows(instance) {
			f.revoke()
		}
	}
}

// serveRevocable serves a request of a file token, ending it when the
// file drops the token while it is in flight.
func (a *tokenAuth) serveRevocable(w http.ResponseWriter, r *http.Request, v authVerdict, h http.Handler) {
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	// The MCP server's handlers run detached from the HTTP request's
	// cancellation: they end by the revocation the context carries.
	revoked, revoke := context.WithCancelCause(context.Background())
	defer revoke(nil)
	ctx = reqctx.WithRevocation(ctx, revoked)
	rw := &revocableWriter{ResponseWriter: w}
	note, _ := r.Context().Value(requestNoteKey{}).(*requestNote)
	var once sync.Once
	stop := a.revoked.watch(&flight{digest: v.digest, note: note, revoke: func() {
		once.Do(func() {
			rw.revoked.Store(true)
			revoke(errTokenRevoked)
			cancel(errTokenRevoked)
		})
	}})
	h.ServeHTTP(rw, r.WithContext(ctx))
	stop()
	if rw.revoked.Load() && !rw.wrote.Load() {
		clear(w.Header()) // what the handler meant for its answer
		a.refuse(w, r, true)
	}
}

// revocableWriter drops what is written once its request is revoked.
type revocableWriter struct {
	http.ResponseWriter
	revoked atomic.Bool
	wrote   atomic.Bool // the header went out
}

func (w *revocableWriter) WriteHeader(code int) {
	if w.revoked.Load() {
		return
	}
	w.wrote.Store(true)
	w.ResponseWriter.WriteHeader(code)
}

func (w *revocableWriter) Write(p []byte) (int, error) {
	if w.revoked.Load() {
		return 0, errTokenRevoked
	}
	w.wrote.Store(true)
	return w.ResponseWriter.Write(p)
}

// FlushError flushes what was written unless the request is revoked.
func (w *revocableWriter) FlushError() error {
	if w.revoked.Load() {
		return errTokenRevoked
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Flush is FlushError for http.Flusher.
func (w *revocableWriter) Flush() { _ = w.FlushError() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *revocableWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
