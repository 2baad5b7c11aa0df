// SPDX-License-Identifier: Apache-2.0

package main

// What replicas share through the shared state (--shared-state): the store
// opened for a configuration (sharedstate.Open reads the URL), and the
// cluster-wide forms of the rate limit (--rate-limit) and of the upstream
// budget (--upstream-concurrency) in the shapes trust and restclient ask
// for.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// budgetLease is how long a crashed replica's upstream slots stay taken; a
// live replica renews its leases while it holds them.
const budgetLease = 15 * time.Second

// budgetMaxWait bounds the wait for a cluster-wide upstream slot of a
// request without a deadline (every REST call has one).
const budgetMaxWait = 5 * time.Second

// sharedScope is the shared-state scope of one Dagu server, the one place
// it is built: replicas share entries only in front of the same Dagu, under
// the same instance name, with the same gateway version (whose cached
// shapes may differ). instance is "" for the one Dagu of a gateway without
// an instances file, whose scope is what it always was.
func sharedScope(daguURL, instance string) string {
	if instance == "" {
		return daguURL + " " + version
	}
	return "instance " + instance + " " + daguURL + " " + version
}

// openShared opens the replicas' shared state (--shared-state); nil when
// none is configured. Only replicas of the same scope (sharedScope) share
// entries. It does not contact Redis.
func openShared(cfg config.Config, scope string, log *slog.Logger, reg prometheus.Registerer) (*sharedstate.Store, error) {
	if cfg.SharedStateURL == "" {
		return nil, nil
	}
	store, err := sharedstate.Open(sharedstate.Options{
		URL: cfg.SharedStateURL, PasswordFile: cfg.SharedStatePasswordFile, SentinelPasswordFile: cfg.SharedStateSentinelPasswordFile,
		Timeout: cfg.SharedStateTimeout, Scope: scope, Registerer: reg, Logger: log,
	})
	if err != nil {
		return nil, fmt.Errorf("shared state: %w", err)
	}
	log.Info("shared state configured; caches, the rate limit and the upstream budget are shared across replicas",
		"url", store.URL(), "topology", string(store.Topology()))
	return store, nil
}

// sharedRateLimit returns the cluster-wide form of --rate-limit, or nil
// without a store or a rate.
func sharedRateLimit(cfg config.Config, store *sharedstate.Store) (*clusterRateLimit, error) {
	if store == nil || cfg.RateLimit <= 0 {
		return nil, nil
	}
	burst := cfg.RateBurst
	if burst <= 0 {
		burst = max(1, int(2*cfg.RateLimit)) // the read tool's default
	}
	l, err := store.RateLimiter(cfg.RateLimit, burst)
	if err != nil {
		return nil, err
	}
	return &clusterRateLimit{l: l}, nil
}

// sharedBudget returns the cluster-wide form of --upstream-concurrency, or
// nil without a store.
func sharedBudget(cfg config.Config, store *sharedstate.Store) (restclient.SharedBudget, error) {
	if store == nil {
		return nil, nil
	}
	limit := cfg.UpstreamConcurrency
	if limit <= 0 {
		limit = restclient.DefaultConcurrency
	}
	sem, err := store.Semaphore("upstream", limit, budgetLease)
	if err != nil {
		return nil, err
	}
	return clusterBudget{sem: sem}, nil
}

// clusterRateLimit is the shared rate limit as the per-caller limits ask
// for it (trust.SharedRateLimiter).
type clusterRateLimit struct{ l *sharedstate.RateLimiter }

// Allow takes a token of the caller's cluster-wide bucket.
func (c *clusterRateLimit) Allow(ctx context.Context, caller string) (bool, time.Duration, error) {
	d, err := c.l.Allow(ctx, caller)
	return d.Allowed, d.RetryAfter, err
}

// clusterBudget is the shared semaphore as the REST client asks for it
// (restclient.SharedBudget).
type clusterBudget struct{ sem *sharedstate.Semaphore }

// Acquire takes a cluster-wide upstream slot, waiting at most until the
// request's deadline.
func (c clusterBudget) Acquire(ctx context.Context) (func(), bool, error) {
	wait := budgetMaxWait
	if deadline, ok := ctx.Deadline(); ok {
		wait = time.Until(deadline)
	}
	release, err := c.sem.Acquire(ctx, wait)
	switch {
	case errors.Is(err, sharedstate.ErrBusy):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	}
	return release, false, nil
}
