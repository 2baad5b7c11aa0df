// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// soleNode is the address the sole shard shows in these tests.
const soleNode = "10.0.0.1:6379"

func newTestHealth(t *testing.T) (*health, *testkit.Clock, *testkit.LogBuffer, *metrics) {
	t.Helper()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	logs := &testkit.LogBuffer{}
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	node := func(shard string) string {
		if shard == soleShard {
			return soleNode
		}
		return shard
	}
	h := newHealth(Options{MaxPause: 2 * time.Second, Now: clock.Now, Logger: slog.New(slog.NewTextHandler(logs, nil))},
		"redis://:xxxxx@db:6379", m, node)
	return h, clock, logs, m
}

func TestHealthPausesAfterFailuresAndProbesOnce(t *testing.T) {
	t.Parallel()
	h, clock, _, m := newTestHealth(t)
	if !h.allow(soleShard) {
		t.Fatal("a fresh store must ask Redis")
	}
	h.failure(soleShard, "cache_get", reasonTimeout)
	if testutil.ToFloat64(m.up) != 0 || testutil.ToFloat64(m.nodeUp.WithLabelValues(soleNode)) != 0 {
		t.Fatal("up and the node's gauge must be 0 after a failure")
	}
	if h.allow(soleShard) {
		t.Fatal("right after a failure the store must fall back without asking")
	}
	clock.Advance(firstPause)
	if !h.allow(soleShard) {
		t.Fatal("after the pause one operation must probe")
	}
	if h.allow(soleShard) {
		t.Fatal("while one probe is out, the others must fall back")
	}
	h.failure(soleShard, "cache_get", reasonTimeout)
	clock.Advance(firstPause)
	if h.allow(soleShard) {
		t.Fatal("the second pause must be longer than the first")
	}
	clock.Advance(firstPause)
	if !h.allow(soleShard) {
		t.Fatal("after the doubled pause one operation must probe")
	}
	h.success(soleShard)
	first, second := h.allow(soleShard), h.allow(soleShard)
	if !first || !second || testutil.ToFloat64(m.up) != 1 || testutil.ToFloat64(m.nodeUp.WithLabelValues(soleNode)) != 1 {
		t.Fatal("after a success every operation must ask Redis again and up must be 1")
	}
	if got, want := testutil.ToFloat64(m.lastHealthy), float64(clock.Now().UnixMilli())/1000; got != want {
		t.Fatalf("last healthy = %v, want the success's time %v", got, want)
	}
}

func TestHealthPauseIsBoundedAndAbandonFreesTheProbe(t *testing.T) {
	t.Parallel()
	h, clock, _, _ := newTestHealth(t)
	for range 40 {
		h.failure(soleShard, "cache_get", reasonUnreachable)
	}
	clock.Advance(2 * time.Second)
	if !h.allow(soleShard) {
		t.Fatal("the pause must never exceed MaxPause")
	}
	h.abandon(soleShard)
	if !h.allow(soleShard) {
		t.Fatal("a probe its caller gave up on must let the next operation probe")
	}
}

// TestHealthWarnsOncePerOutage: one WARN when an outage starts, one INFO
// when it ends; an outage that comes back within a minute (a flapping
// node) is counted, not logged, and the next warning says how many.
func TestHealthWarnsOncePerOutage(t *testing.T) {
	t.Parallel()
	h, clock, logs, _ := newTestHealth(t)
	for range 100 {
		h.failure(soleShard, "cache_get", reasonTimeout)
		clock.Advance(100 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 1 {
		t.Fatalf("%d unavailable lines in 10 s of failures, want 1:\n%s", n, logs)
	}
	h.success(soleShard)
	h.success(soleShard)
	if n := strings.Count(logs.String(), "available again"); n != 1 || !strings.Contains(logs.String(), "unavailable_for=10s") {
		t.Fatalf("%d recovery lines, want 1 saying how long:\n%s", n, logs)
	}
	for range 5 { // flapping: down and up again within the minute
		clock.Advance(time.Second)
		h.failure(soleShard, "cache_get", reasonUnreachable)
		h.success(soleShard)
	}
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 1 {
		t.Fatalf("a flapping node logged %d unavailable lines within a minute, want 1:\n%s", n, logs)
	}
	clock.Advance(time.Minute)
	h.failure(soleShard, "cache_get", reasonTimeout)
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 2 || !strings.Contains(logs.String(), "outages_since_last_warning=5") {
		t.Fatalf("the next outage after a minute must warn and count the quiet ones:\n%s", logs)
	}
	for _, want := range []string{"node=" + soleNode, "url=redis://:xxxxx@db:6379", "level=WARN"} {
		if !strings.Contains(logs.String(), want) {
			t.Fatalf("the lines do not say %s:\n%s", want, logs)
		}
	}
}

// TestHealthKeepsAClusterSharingThroughItsOtherMasters: one master down
// pauses its own operations only; the outage lasts until it answers again
// or, after a failover, no operation is routed to it any more.
func TestHealthKeepsAClusterSharingThroughItsOtherMasters(t *testing.T) {
	t.Parallel()
	h, clock, logs, m := newTestHealth(t)
	const a, b = "10.0.0.1:7000", "10.0.0.2:7001"
	h.success(a)
	h.success(b)
	h.failure(a, "cache_get", reasonUnreachable)
	if h.allow(a) || !h.allow(b) {
		t.Fatal("a failed master must pause alone; the others must go on")
	}
	h.success(b)
	if h.up() || testutil.ToFloat64(m.up) != 0 || testutil.ToFloat64(m.nodeUp.WithLabelValues(b)) != 1 {
		t.Fatal("with one master down, the store is not up, but the other master is")
	}
	nodes, _, since := h.snapshot()
	if len(nodes) != 2 || since.IsZero() {
		t.Fatalf("snapshot = %v since %v; want both masters during an outage", nodes, since)
	}
	// The failed master's slots moved to another: nothing is routed to it.
	for range 6 {
		clock.Advance(time.Second)
		h.success(b)
	}
	if !h.up() || testutil.ToFloat64(m.up) != 1 || !strings.Contains(logs.String(), "available again") {
		t.Fatalf("a master nothing is routed to any more must be forgotten and the outage end:\n%s", logs)
	}
	if nodes, _, _ := h.snapshot(); len(nodes) != 1 || nodes[0].node != b {
		t.Fatalf("snapshot = %v, want the live master alone", nodes)
	}
	if n := testutil.CollectAndCount(m.nodeUp); n != 1 {
		t.Fatalf("%d node gauges, want the live master's alone", n)
	}
}

// TestHealthForgetsAFailedMasterOnceItsSlotsMoved: after a cluster
// failover the layout routes the failed master's keys to the promoted
// replica; the outage ends at the next check (a second), not after
// forgetAfter.
func TestHealthForgetsAFailedMasterOnceItsSlotsMoved(t *testing.T) {
	t.Parallel()
	h, clock, logs, _ := newTestHealth(t)
	const old, promoted, key = "10.0.0.1:7000", "10.0.0.3:7002", "dgw:v2:{x:c:run}"
	var failedOver bool
	h.moved = func(shard, k string) bool { return failedOver && shard == old && k == key }
	if !h.allowFor(old, key) {
		t.Fatal("a fresh master must be asked")
	}
	h.failure(old, "cache_get", reasonUnreachable)
	clock.Advance(time.Second)
	h.success(promoted)
	if h.up() {
		t.Fatal("while the layout still routes to the failed master, the outage goes on")
	}
	failedOver = true
	clock.Advance(time.Second)
	h.success(promoted)
	if !h.up() || !strings.Contains(logs.String(), "available again") {
		t.Fatalf("a failed master whose slots moved must be forgotten at once:\n%s", logs)
	}
	if nodes, _, _ := h.snapshot(); len(nodes) != 1 || nodes[0].node != promoted {
		t.Fatalf("snapshot = %v, want the promoted master alone", nodes)
	}
}
