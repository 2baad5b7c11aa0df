// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// What an /mcp request reserves of the memory budget before its body is
// read. Parsing a body costs several times its size (the SDK reads it
// whole, decodes the JSON-RPC message and copies the tool's arguments,
// which the tool decodes again): BENCHMARKS.md has the measurement behind
// the factor. A body of unknown length reserves as much as the largest
// body allowed. The base covers what any request allocates whatever its
// body (the SDK's decoder buffers, the answer's envelope).
const (
	requestParseFactor = 8
	requestBaseBytes   = 64 << 10
)

// RequestBaseBytes is what any /mcp request reserves whatever its body:
// the front door's part of a read with a small body.
const RequestBaseBytes = requestBaseBytes

// admitMemory reserves an /mcp request's memory before any of it is read,
// within its caller's share and its instance's (ownerOf): a request that
// does not fit waits up to membudget.ShareWait for memory to come back,
// then answers 503 with Retry-After. The reservation rides in the
// request's context, where the tool grows it for the answer it builds and
// the log text it reads and the REST client for Dagu's bodies, and is
// released when the handler returns: after the answer is written, when
// the client went away, or when the handler panicked. The answer is
// written in chunks, each with its own write deadline (see chunkedWriter),
// so a client that stops reading gives its reservation back within one
// chunk's deadline, and a slow reader holds only its caller's share.
func admitMemory(h http.Handler, a *admission) http.Handler {
	if a.budget == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, _ := reqctx.From(r.Context()); info.Trust == reqctx.TrustVerified {
			pendingDone(r)() // a verified caller's connection is not the first to close
		}
		r, release, ok := a.admit(r, r.ContentLength, true)
		if !ok {
			refuseBusy(w)
			return
		}
		defer release()
		h.ServeHTTP(newChunkedWriter(w), r)
	})
}

// pendingKey is the context key of the function that takes a request's
// connection off the guard's pending list (watchPending).
type pendingKey struct{}

// watchPending puts the connection of a request with a body on the
// guard's pending list (markPending) until its caller is verified
// (admitMemory) or its body has been read, whichever comes first; the
// returned function ends it too (when the request ends).
func watchPending(r *http.Request) (*http.Request, func()) {
	if r.Body == nil || r.Body == http.NoBody {
		return r, func() {}
	}
	done := markPending(r)
	r.Body = &bodyWatch{ReadCloser: r.Body, done: done}
	return r.WithContext(context.WithValue(r.Context(), pendingKey{}, done)), done
}

// pendingDone is the function watchPending put in r's context (a no-op
// when there is none).
func pendingDone(r *http.Request) func() {
	if done, ok := r.Context().Value(pendingKey{}).(func()); ok {
		return done
	}
	return func() {}
}

// bodyWatch calls done once its body has been read to the end (or failed).
type bodyWatch struct {
	io.ReadCloser
	done func()
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.done()
	}
	return n, err
}

// admission is what admitMemory and each message of a batch reserve
// from: the memory budget (nil: nothing is reserved).
type admission struct {
	budget    *membudget.Budget
	maxBody   int64
	instances bool // several instances are served: each has a share
}

// newAdmission is the admission of requests whose bodies are at most
// maxBody bytes: every share holds at least one such request.
func newAdmission(budget *membudget.Budget, maxBody int64, instances bool) *admission {
	budget.RaiseFloor(requestReserve(maxBody, maxBody))
	return &admission{budget: budget, maxBody: maxBody, instances: instances}
}

// admit reserves what a request with a body of declared length (-1:
// unknown) holds, within its shares, waiting for it when wait is set: r
// comes back carrying the reservation in its context, with the function
// that releases it; ok is false when it does not fit (nothing is then
// held).
func (a *admission) admit(r *http.Request, declared int64, wait bool) (_ *http.Request, release func(), ok bool) {
	if a.budget == nil {
		return r, func() {}, true
	}
	n := requestReserve(declared, bodyBound(r, a.maxBody))
	res, err := a.budget.ReserveFor(r.Context(), ownerOf(r, a.instances), n, wait)
	if err != nil {
		return r, nil, false
	}
	return r.WithContext(membudget.WithReservation(r.Context(), res)), res.Release, true
}

// RequestReserve is what a request whose body is as large as allowed
// (maxBody) reserves before it is read: the front door's part of the
// largest read.
func RequestReserve(maxBody int64) int64 {
	maxBody = orDefault(maxBody, defaultMaxBodyBytes)
	return requestReserve(maxBody, maxBody)
}

// requestReserve is what a request with a body of declared length (-1:
// unknown) reserves before it is read.
func requestReserve(declared, maxBody int64) int64 {
	if declared < 0 || declared > maxBody {
		declared = maxBody
	}
	return requestBaseBytes + requestParseFactor*declared
}

// refuseBusy answers a request the memory budget cannot take: 503 with the
// seconds to wait.
func refuseBusy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(int(membudget.RetryAfter.Seconds())))
	writeError(w, http.StatusServiceUnavailable, "the gateway is busy: requests in flight hold its memory budget; retry after the delay in Retry-After")
}
