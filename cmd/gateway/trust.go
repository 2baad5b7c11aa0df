// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/cluster"
	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/trust"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// callerVerifier is the passthrough front door's trust decision: the
// caller's key is put to Dagu through the adapter (which detects Dagu's
// capabilities with the first key Dagu accepts), and the verdict is cached
// and its checks bounded by package trust. Background checks end with ctx.
func (g *gateway) callerVerifier(ctx context.Context) (frontdoor.Verifier, error) {
	v, err := trust.New(trust.Options{Check: g.checkCredential, Base: ctx, Registerer: g.registry})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, credential, clientAddr string) (reqctx.Trust, string) {
		d := v.Decide(ctx, credential, clientAddr)
		return d.Verdict.Trust(), d.Caller
	}, nil
}

// checkCredential asks Dagu about the credential ctx carries and, once
// Dagu accepted it, whose it is: the caller's limits key on that.
func (g *gateway) checkCredential(ctx context.Context, _ string) (trust.Result, error) {
	verdict, err := g.adapter.CheckCredential(ctx)
	if err != nil {
		g.log.WarnContext(ctx, "a caller's Dagu key could not be checked", "error", err)
		return trust.Result{}, err
	}
	switch verdict {
	case upstream.CredentialAccepted:
		return trust.Result{Verdict: trust.Verified, Identity: g.adapter.CredentialIdentity(ctx)}, nil
	case upstream.CredentialLacksSurface:
		return trust.Result{Verdict: trust.LacksSurface}, nil
	}
	return trust.Result{Verdict: trust.Refused}, nil
}

// callerConcurrency is --caller-concurrency's limit of each caller's reads
// in flight, nil when off.
func callerConcurrency(cfg config.Config) readtool.ConcurrencyLimiter {
	if c := trust.NewConcurrency(cfg.CallerConcurrency); c != nil {
		return c
	}
	return nil
}

// callerLimits are --rate-limit's per-caller buckets, in front of the
// read tool (nil when off); shared, when set, is the cluster-wide form
// that decides first.
func callerLimits(cfg config.Config, shared *cluster.RateLimit) (readtool.Limiter, error) {
	var cluster trust.SharedRateLimiter
	if shared != nil {
		cluster = shared
	}
	limits, err := trust.NewLimits(cfg.RateLimit, cfg.RateBurst, cluster, nil)
	if err != nil || limits == nil {
		return nil, err
	}
	return limits, nil
}
