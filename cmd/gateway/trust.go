// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"

	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/trust"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// callerVerifier is the passthrough front door's trust decision: the
// caller's key is put to Dagu through the adapter (which detects Dagu's
// capabilities with the first key Dagu accepts), and the verdict is cached
// and its checks bounded by package trust. Background checks end with ctx.
func (g *gateway) callerVerifier(ctx context.Context) (frontdoor.Verifier, error) {
	v, err := trust.New(trust.Options{Check: g.checkCredential, Base: ctx, Registerer: g.registry, RecheckAfter: g.cfg.TrustRecheck})
	if err != nil {
		return nil, err
	}
	return v.Verify, nil
}

// grantRecheck is the period a passthrough credential's cached answers
// are tied to (upstream.AdapterOptions.GrantRecheck): the trust re-check
// period, which is when Dagu's word on the key is asked again. Zero
// outside passthrough.
func grantRecheck(cfg config.Config) time.Duration {
	if !cfg.Passthrough() {
		return 0
	}
	return cfg.TrustRecheck
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
