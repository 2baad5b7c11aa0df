// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate/redistest"
)

// TestWithoutSharedStateNothingIsShared: without --shared-state there is no
// store, and without a store (or a rate) no cluster-wide limit or budget.
func TestWithoutSharedStateNothingIsShared(t *testing.T) {
	t.Parallel()
	store, err := openShared(config.Config{}, "scope", slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	if err != nil || store != nil {
		t.Fatalf("openShared without a URL = %v, %v; want nil, nil", store, err)
	}
	if l, err := sharedRateLimit(config.Config{RateLimit: 5}, nil); err != nil || l != nil {
		t.Errorf("sharedRateLimit without a store = %v, %v", l, err)
	}
	if b, err := sharedBudget(config.Config{}, nil); err != nil || b != nil {
		t.Errorf("sharedBudget without a store = %v, %v", b, err)
	}
}

// TestSharedLimitsAdmitTheirBounds: with a store, the rate limit admits a
// caller's burst and no more, and the budget's one slot, once released, can
// be taken again (the semaphore's waits are sharedstate's own tests).
func TestSharedLimitsAdmitTheirBounds(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	cfg := config.Config{SharedStateURL: srv.URL(), SharedStateTimeout: 5 * time.Second, RateLimit: 0.001, RateBurst: 2, UpstreamConcurrency: 1}
	store, err := openShared(cfg, "test", slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	ctx := context.Background()

	limit, err := sharedRateLimit(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false} {
		allowed, _, err := limit.Allow(ctx, "caller")
		if err != nil || allowed != want {
			t.Fatalf("read %d: allowed %v (%v), want %v", i+1, allowed, err, want)
		}
	}

	budget, err := sharedBudget(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	release, busy, err := budget.Acquire(ctx)
	if err != nil || busy {
		t.Fatalf("first slot: busy %v, %v", busy, err)
	}
	release()
	again, busy, err := budget.Acquire(ctx)
	if err != nil || busy {
		t.Fatalf("slot after release: busy %v, %v", busy, err)
	}
	again()
}
