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

func newTestHealth(t *testing.T) (*health, *testkit.Clock, *testkit.LogBuffer, *metrics) {
	t.Helper()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	logs := &testkit.LogBuffer{}
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHealth(Options{URL: "redis://:hunter2@db:6379", MaxPause: 2 * time.Second, Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(logs, nil))}, m)
	return h, clock, logs, m
}

func TestHealthPausesAfterFailuresAndProbesOnce(t *testing.T) {
	t.Parallel()
	h, clock, _, m := newTestHealth(t)
	if !h.allow() {
		t.Fatal("a fresh store must ask Redis")
	}
	h.failure("cache_get", reasonTimeout)
	if testutil.ToFloat64(m.up) != 0 {
		t.Fatal("up must be 0 after a failure")
	}
	if h.allow() {
		t.Fatal("right after a failure the store must fall back without asking")
	}
	clock.Advance(firstPause)
	if !h.allow() {
		t.Fatal("after the pause one operation must probe")
	}
	if h.allow() {
		t.Fatal("while one probe is out, the others must fall back")
	}
	h.failure("cache_get", reasonTimeout)
	clock.Advance(firstPause)
	if h.allow() {
		t.Fatal("the second pause must be longer than the first")
	}
	clock.Advance(firstPause)
	if !h.allow() {
		t.Fatal("after the doubled pause one operation must probe")
	}
	h.success()
	first, second := h.allow(), h.allow()
	if !first || !second || testutil.ToFloat64(m.up) != 1 {
		t.Fatal("after a success every operation must ask Redis again and up must be 1")
	}
}

func TestHealthPauseIsBoundedAndAbandonFreesTheProbe(t *testing.T) {
	t.Parallel()
	h, clock, _, _ := newTestHealth(t)
	for range 40 {
		h.failure("cache_get", reasonUnreachable)
	}
	clock.Advance(2 * time.Second)
	if !h.allow() {
		t.Fatal("the pause must never exceed MaxPause")
	}
	h.abandon()
	if !h.allow() {
		t.Fatal("a probe its caller gave up on must let the next operation probe")
	}
}

func TestHealthLogsOneLinePerMinuteAndTheRecovery(t *testing.T) {
	t.Parallel()
	h, clock, logs, _ := newTestHealth(t)
	for range 100 {
		h.failure("cache_get", reasonTimeout)
		clock.Advance(100 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 1 {
		t.Fatalf("%d unavailable lines in 10 s of failures, want 1:\n%s", n, logs)
	}
	clock.Advance(time.Minute)
	h.failure("cache_get", reasonTimeout)
	if n := strings.Count(logs.String(), "shared state unavailable"); n != 2 {
		t.Fatalf("%d unavailable lines after a minute more, want 2", n)
	}
	h.success()
	h.success()
	if n := strings.Count(logs.String(), "reachable again"); n != 1 {
		t.Fatalf("%d recovery lines, want 1", n)
	}
	if strings.Contains(logs.String(), "hunter2") {
		t.Fatalf("a log line carries the password:\n%s", logs)
	}
}
