// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"log/slog"
	"sync"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// Pauses after failures: the first is firstPause, each further failure
// doubles it up to Options.MaxPause.
const firstPause = 100 * time.Millisecond

// logEvery bounds the "unavailable" log line to one per period.
const logEvery = time.Minute

// health decides whether Redis is asked at all. After a failure it pauses
// (callers fall back at once); when the pause ends one operation probes,
// and the others keep falling back until the probe succeeds or fails.
type health struct {
	now      func() time.Time
	maxPause time.Duration
	log      *slog.Logger
	url      string
	metrics  *metrics

	mu          sync.Mutex
	failures    int
	pausedUntil time.Time
	probing     bool
	lastLog     time.Time
	loggedDown  bool
}

func newHealth(opts Options, m *metrics) *health {
	m.up.Set(1)
	return &health{now: opts.Now, maxPause: opts.MaxPause, log: opts.Logger, url: redact.URL(opts.URL), metrics: m}
}

// allow reports whether an operation may ask Redis now.
func (h *health) allow() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failures == 0 {
		return true
	}
	if h.probing || h.now().Before(h.pausedUntil) {
		return false
	}
	h.probing = true
	return true
}

// up reports whether the last operation found Redis answering, without
// claiming a probe.
func (h *health) up() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failures == 0
}

// success records an answer from Redis.
func (h *health) success() {
	h.mu.Lock()
	defer h.mu.Unlock()
	wasDown := h.failures > 0
	h.failures, h.probing = 0, false
	if !wasDown {
		return
	}
	h.metrics.up.Set(1)
	if h.loggedDown {
		h.loggedDown = false
		h.log.Info("shared state reachable again; caches and limits are shared across replicas", "url", h.url)
	}
}

// abandon records an operation its caller gave up on: it says nothing
// about Redis.
func (h *health) abandon() {
	h.mu.Lock()
	h.probing = false
	h.mu.Unlock()
}

// failure records a failed operation and pauses.
func (h *health) failure(op, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failures++
	h.probing = false
	pause := firstPause << min(h.failures-1, 16)
	now := h.now()
	h.pausedUntil = now.Add(min(pause, h.maxPause))
	h.metrics.up.Set(0)
	if h.loggedDown && now.Sub(h.lastLog) < logEvery {
		return
	}
	h.lastLog, h.loggedDown = now, true
	h.log.Warn("shared state unavailable; reads, caches and limits fall back to this replica's own",
		"url", h.url, "op", op, "reason", reason)
}

// Up reports whether Redis answered the last operation: callers that
// would reorder their own calls to coalesce across replicas do so only
// while it is up. A nil store is never up.
func (s *Store) Up() bool {
	return s != nil && s.health.up()
}
