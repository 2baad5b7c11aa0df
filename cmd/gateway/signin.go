// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
	"github.com/dagu-mcp-gateway/gateway/internal/policy"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// signIn is the sign-in of --oidc-issuer: the provider's token check, the
// access policy of --access-policy in service and the gate over both.
type signIn struct {
	verifier *oidc.Verifier
	live     *policy.Live
	gate     *policy.Gate
}

// newSignIn builds the sign-in of cfg, its counters on reg: the policy
// file is read now (a file that is not good fails the start), the
// provider's keys when run starts them. nil without --oidc-issuer.
func newSignIn(cfg config.Config, log *slog.Logger, reg prometheus.Registerer) (*signIn, error) {
	if !cfg.SignIn() {
		return nil, nil
	}
	v, err := oidc.New(oidc.Options{Issuer: cfg.OIDCIssuer, Audiences: cfg.OIDCAudiences, GroupsClaim: cfg.OIDCGroupsClaim,
		Scopes: cfg.OIDCScopes, Logger: log, Registerer: reg})
	if err != nil {
		return nil, err
	}
	live, err := policy.Watch(policy.Options{Path: cfg.AccessPolicyFile, Targets: readTargets(), Instances: cfg.InstancesFile != "", Logger: log})
	if err != nil {
		return nil, err
	}
	gate, err := policy.NewGate(v, live, reg)
	if err != nil {
		return nil, err
	}
	return &signIn{verifier: v, live: live, gate: gate}, nil
}

// run fetches the provider's keys and follows the policy file until ctx
// ends.
func (s *signIn) run(ctx context.Context) {
	if s == nil {
		return
	}
	go s.verifier.Run(ctx)
	go s.live.Watcher().Run(ctx)
}

// frontDoor is the front door's view of the sign-in; nil without one.
func (s *signIn) frontDoor() *frontdoor.SignIn {
	if s == nil {
		return nil
	}
	return &frontdoor.SignIn{Issuer: s.verifier.Issuer(), Scopes: s.verifier.Scopes(),
		Admit: func(ctx context.Context, token, resource, instance string) frontdoor.Admission {
			return admission(s.gate.Admit(ctx, token, resource, instance))
		}}
}

// admission is the gate's decision as the front door takes it.
func admission(a policy.Admission) frontdoor.Admission {
	out := frontdoor.Admission{Outcome: outcomes[a.Outcome], Shaped: a.Shaped, Credential: a.Key, Reason: a.Reason}
	if out.Outcome == 0 {
		out.Outcome = frontdoor.InvalidToken // an outcome this table lacks never admits
	}
	if id := a.Identity; id.Subject != "" {
		out.Person = reqctx.Person{Issuer: id.Issuer, Subject: id.Subject, Email: id.Email}
		out.Caller = id.Key()
	}
	if a.Rule != nil {
		out.Rule, out.Targets = a.Rule.Name, a.Rule.Targets
	}
	return out
}

// outcomes maps the gate's outcomes to the front door's.
var outcomes = map[policy.Outcome]frontdoor.Outcome{
	policy.Admitted:          frontdoor.Admitted,
	policy.InvalidToken:      frontdoor.InvalidToken,
	policy.InsufficientScope: frontdoor.InsufficientScope,
	policy.NoRule:            frontdoor.NoRule,
	policy.Unavailable:       frontdoor.Unavailable,
}
