// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// memoryShareDivisor: the requests of one verified caller (as the trust
// decision names it: whose Dagu key in passthrough, which inbound token
// otherwise), and those of all unverified callers together, reserve within
// this fraction of the memory budget, besides the budget itself. A request whose declared body never comes holds its
// reservation until the server's read timeout, so without shares a
// stranger's made-up keys, or one ordinary key, holding enough of them
// open refuse every other caller.
const memoryShareDivisor = 4

// unverifiedShare is the share all unverified callers reserve within.
const unverifiedShare = "unverified"

// memoryShares counts what each share holds of the budget's admissions.
// It is safe for concurrent use; a share holding nothing is forgotten, so
// it keeps at most one entry per request in flight.
type memoryShares struct {
	limit int64
	mu    sync.Mutex
	held  map[string]int64
}

// newMemoryShares returns the shares of a budget of the given size: each
// at least largest, the most one request reserves, so a request that fits
// the budget alone always fits its share.
func newMemoryShares(budget, largest int64) *memoryShares {
	return &memoryShares{limit: max(budget/memoryShareDivisor, largest), held: map[string]int64{}}
}

// shareOf is the share r's admission counts against, "" for none: the
// local user of a loopback gateway without tokens (anonymousCaller) has
// the whole budget. Callers who share one inbound token share its share,
// so a team that wants its members kept apart gives each its own token.
func shareOf(r *http.Request) string {
	info, _ := reqctx.From(r.Context())
	switch {
	case info.Trust != reqctx.TrustVerified:
		return unverifiedShare
	case info.Caller == anonymousCaller:
		return ""
	}
	return "caller:" + info.Caller
}

// take reserves n bytes of share when they fit within its limit.
func (s *memoryShares) take(share string, n int64) bool {
	if share == "" {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[share]+n > s.limit {
		return false
	}
	s.held[share] += n
	return true
}

// give returns n bytes taken of share.
func (s *memoryShares) give(share string, n int64) {
	if share == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[share] -= n; s.held[share] <= 0 {
		delete(s.held, share)
	}
}
