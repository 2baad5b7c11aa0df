// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"strconv"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
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

// admitMemory reserves an /mcp request's memory before any of it is read:
// a request that does not fit answers 503 with Retry-After at once and is
// never queued. It must also fit its caller's share (see memoryShares):
// no one caller, and not all strangers together, can spend the budget of
// the others. The reservation rides in the request's
// context, where the tool grows it for the answer it builds, and is
// released when the handler returns: after the answer is written, when the client went away,
// or when the handler panicked. The answer is written in chunks, each
// with its own write deadline (see chunkedWriter), so a client that stops
// reading gives its reservation back within one chunk's deadline.
func admitMemory(h http.Handler, a *admission) http.Handler {
	if a.budget == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, release, ok := a.admit(r, r.ContentLength)
		if !ok {
			refuseBusy(w)
			return
		}
		defer release()
		h.ServeHTTP(newChunkedWriter(w), r)
	})
}

// admission is what admitMemory and each message of a batch reserve
// from: the memory budget (nil: nothing is reserved) and its callers'
// shares.
type admission struct {
	budget  *membudget.Budget
	shares  *memoryShares
	maxBody int64
}

// newAdmission is the admission of requests whose bodies are at most
// maxBody bytes.
func newAdmission(budget *membudget.Budget, maxBody int64) *admission {
	a := &admission{budget: budget, maxBody: maxBody}
	if budget != nil {
		a.shares = newMemoryShares(budget.Limit(), requestReserve(maxBody, maxBody))
	}
	return a
}

// admit reserves what a request with a body of declared length (-1:
// unknown) holds, within its caller's share: r comes back carrying the
// reservation in its context, with the function that releases it; ok is
// false when it does not fit (nothing is then held).
func (a *admission) admit(r *http.Request, declared int64) (_ *http.Request, release func(), ok bool) {
	if a.budget == nil {
		return r, func() {}, true
	}
	n := requestReserve(declared, bodyBound(r, a.maxBody))
	share := shareOf(r)
	if !a.shares.take(share, n) {
		a.budget.CountRefusal()
		return r, nil, false
	}
	res, err := a.budget.Reserve(n)
	if err != nil {
		a.shares.give(share, n)
		return r, nil, false
	}
	return r.WithContext(membudget.WithReservation(r.Context(), res)), func() {
		res.Release()
		a.shares.give(share, n)
	}, true
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
