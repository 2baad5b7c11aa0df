// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/trust"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// callerVerifier is the passthrough front door's trust decision: the
// caller's key is put to Dagu through the adapter (which detects Dagu's
// capabilities with the first key Dagu accepts), and the verdict is cached
// and rate limited by package trust.
func (g *gateway) callerVerifier(ctx context.Context) (func(ctx context.Context, credential, remoteAddr string) (string, string), error) {
	v, err := trust.New(trust.Options{Check: g.checkCredential, Base: ctx})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, credential, remoteAddr string) (string, string) {
		d := v.Decide(ctx, credential, remoteAddr)
		return d.Verdict.String(), d.Caller
	}, nil
}

// checkCredential asks Dagu about the credential ctx carries.
func (g *gateway) checkCredential(ctx context.Context, _ string) (trust.Result, error) {
	verdict, err := g.adapter.CheckCredential(ctx)
	if err != nil {
		g.log.WarnContext(ctx, "a caller's Dagu key could not be checked", "error", err)
		return trust.Result{}, err
	}
	switch verdict {
	case upstream.CredentialAccepted:
		return trust.Result{Verdict: trust.Verified}, nil
	case upstream.CredentialLacksSurface:
		return trust.Result{Verdict: trust.LacksSurface}, nil
	}
	return trust.Result{Verdict: trust.Refused}, nil
}
