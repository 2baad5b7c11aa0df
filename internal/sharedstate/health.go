// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Pauses after failures: the first is firstPause, each further failure
// doubles it up to Options.MaxPause.
const firstPause = 100 * time.Millisecond

// logEvery bounds the "unavailable" warnings to one per period: an outage
// that comes and goes (a node that flaps) warns once, and the next warning
// counts the outages in between.
const logEvery = time.Minute

// Shards of a cluster: a master no operation was routed to for forgetAfter
// is forgotten (after a failover its slots are served by another), and at
// most maxShards are kept.
const (
	forgetAfter = 5 * time.Second
	maxShards   = 256
)

// soleShard names the health of a standalone server or Sentinel master,
// and of a cluster before its layout is known.
const soleShard = ""

// health decides whether Redis is asked at all, per shard: the one server
// or Sentinel master, or each master of a cluster (so a cluster with one
// master down goes on sharing through the others). After a failure a shard
// pauses (callers fall back at once); when the pause ends one operation
// probes, and the others keep falling back until the probe succeeds or
// fails.
//
// An outage runs from the first failure while every shard answered to the
// moment every shard answers again; it is logged once at WARN when it
// starts (at most once per logEvery) and once at INFO when it ends.
type health struct {
	now      func() time.Time
	maxPause time.Duration
	log      *slog.Logger
	url      string
	metrics  *metrics
	// node names a shard as a node address: a cluster's shards are their
	// masters' addresses already, the sole shard is the address last
	// dialled.
	node func(shard string) string
	// routed is set by the first answer: a cluster's layout is known from
	// then on, and keys are routed to their masters' health.
	routed atomic.Bool
	// moved reports whether key's slot is served by another master than
	// shard now (nil outside a cluster): a failed master whose slots a
	// promoted replica took over is forgotten at once, not after
	// forgetAfter, so the outage ends when sharing resumes.
	moved func(shard, key string) bool

	mu          sync.Mutex
	shards      map[string]*shardState
	failing     int // shards with failures > 0
	lastHealthy time.Time
	lastPrune   time.Time
	outage      outage
}

// shardState is one shard's health.
type shardState struct {
	failures    int
	pausedUntil time.Time
	probing     bool
	lastSeen    time.Time
	label       string  // the node label of its gauge, "" before the first answer
	shown       float64 // the value of that gauge
	key         string  // a key last routed to it (a cluster's), to see its slot move
}

// outage is the one in progress, if since is set, and what was logged.
type outage struct {
	since    time.Time
	warned   bool
	lastWarn time.Time
	quiet    int // outages not warned about since lastWarn
}

func newHealth(opts Options, display string, m *metrics, node func(string) string) *health {
	m.up.Set(1)
	return &health{now: opts.Now, maxPause: opts.MaxPause, log: opts.Logger, url: display, metrics: m, node: node,
		shards: map[string]*shardState{}}
}

// shard returns a shard's state, made on first use; h.mu is held.
func (h *health) shard(name string, now time.Time) *shardState {
	if now.Sub(h.lastPrune) >= time.Second || len(h.shards) >= maxShards {
		h.prune(now)
	}
	st, ok := h.shards[name]
	if !ok {
		st = &shardState{}
		h.shards[name] = st
	}
	st.lastSeen = now
	return st
}

// prune forgets the cluster masters no operation was routed to lately,
// and the failed ones whose slots another master serves now.
func (h *health) prune(now time.Time) {
	h.lastPrune = now
	for name, st := range h.shards {
		if name == soleShard || now.Sub(st.lastSeen) < forgetAfter && len(h.shards) < maxShards && !h.replaced(name, st) {
			continue
		}
		if st.label != "" {
			h.metrics.nodeUp.DeleteLabelValues(st.label)
		}
		delete(h.shards, name)
		if st.failures > 0 {
			h.failing--
			h.endOutageIfClear(now)
		}
	}
}

// replaced reports whether a failed shard's slots moved to another master
// (a cluster failover); h.mu is held.
func (h *health) replaced(name string, st *shardState) bool {
	return st.failures > 0 && st.key != "" && h.moved != nil && h.moved(name, st.key)
}

// allow reports whether an operation on shard may ask Redis now.
func (h *health) allow(shard string) bool { return h.allowFor(shard, "") }

// allowFor is allow for an operation on key, which the shard remembers
// (see moved).
func (h *health) allowFor(shard, key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	st := h.shard(shard, now)
	if key != "" && shard != soleShard {
		st.key = key
	}
	if st.failures == 0 {
		return true
	}
	if st.probing || now.Before(st.pausedUntil) {
		return false
	}
	st.probing = true
	return true
}

// up reports whether every shard answered its last operation, without
// claiming a probe.
func (h *health) up() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failing == 0
}

// isRouted reports whether an operation ever succeeded.
func (h *health) isRouted() bool { return h.routed.Load() }

// success records an answer from shard.
func (h *health) success(shard string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	st := h.shard(shard, now)
	h.routed.Store(true)
	h.label(shard, st, 1)
	if st.failures > 0 {
		st.failures = 0
		h.failing--
		h.endOutageIfClear(now)
	}
	st.probing = false
	if h.failing == 0 {
		h.lastHealthy = now
		h.metrics.lastHealthy.Set(float64(now.UnixMilli()) / 1000)
	}
}

// abandon records an operation its caller gave up on: it says nothing
// about Redis.
func (h *health) abandon(shard string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st, ok := h.shards[shard]; ok {
		st.probing = false
	}
}

// failure records a failed operation on shard and pauses it.
func (h *health) failure(shard, op, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	st := h.shard(shard, now)
	st.failures++
	st.probing = false
	st.pausedUntil = now.Add(min(firstPause<<min(st.failures-1, 16), h.maxPause))
	h.label(shard, st, 0)
	if st.failures > 1 {
		return
	}
	h.failing++
	h.metrics.up.Set(0)
	if h.outage.since.IsZero() {
		h.startOutage(now, shard, op, reason)
	}
}

// startOutage logs the outage's start: once per logEvery.
func (h *health) startOutage(now time.Time, shard, op, reason string) {
	o := &h.outage
	o.since = now
	if !o.lastWarn.IsZero() && now.Sub(o.lastWarn) < logEvery {
		o.warned = false
		o.quiet++
		return
	}
	attrs := []any{"url", h.url}
	if node := h.node(shard); node != "" { // none before a cluster's first answer
		attrs = append(attrs, "node", node)
	}
	attrs = append(attrs, "op", op, "reason", reason)
	if o.quiet > 0 {
		attrs = append(attrs, "outages_since_last_warning", o.quiet)
	}
	h.log.Warn("shared state unavailable; reads, caches and limits fall back to this replica's own until it answers again", attrs...)
	o.warned, o.lastWarn, o.quiet = true, now, 0
}

// endOutageIfClear ends the outage once every shard answers.
func (h *health) endOutageIfClear(now time.Time) {
	if h.failing > 0 || h.outage.since.IsZero() {
		return
	}
	h.metrics.up.Set(1)
	if h.outage.warned {
		h.log.Info("shared state available again; caches and limits are shared across replicas",
			"url", h.url, "unavailable_for", now.Sub(h.outage.since).Round(time.Millisecond).String())
	}
	h.outage.since, h.outage.warned = time.Time{}, false
}

// label sets a shard's node gauge, moving it when the shard's node changed
// (a Sentinel failover).
func (h *health) label(shard string, st *shardState, v float64) {
	name := h.node(shard)
	if name == "" || name == st.label && v == st.shown {
		return
	}
	if st.label != name && st.label != "" {
		h.metrics.nodeUp.DeleteLabelValues(st.label)
	}
	st.label, st.shown = name, v
	h.metrics.nodeUp.WithLabelValues(name).Set(v)
}

// nodeHealth is one shard as the status shows it.
type nodeHealth struct {
	node string
	up   bool
}

// snapshot is the state Status reports.
func (h *health) snapshot() (nodes []nodeHealth, lastHealthy, downSince time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, st := range h.shards {
		if n := h.node(name); n != "" {
			nodes = append(nodes, nodeHealth{node: n, up: st.failures == 0})
		}
	}
	return nodes, h.lastHealthy, h.outage.since
}

// Up reports whether the shared state answered its last operations (every
// master of a cluster): callers that would reorder their own calls to
// coalesce across replicas do so only while it is up. A nil store is never
// up.
func (s *Store) Up() bool {
	return s != nil && s.health.up()
}
