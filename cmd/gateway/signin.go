// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
	"github.com/dagu-mcp-gateway/gateway/internal/policy"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// signIn is the sign-in of --oidc-issuer: the provider's token check, the
// access policy of --access-policy in service and the gate over both.
type signIn struct {
	log      *slog.Logger
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
	return &signIn{log: log, verifier: v, live: live, gate: gate}, nil
}

// start runs the sign-in while ctx lasts (the provider's keys fetched,
// the policy file followed) and returns the front door's part of it; nil
// without one. ownKey says whether an instance has a Dagu key of its own:
// a person whose rule names none is refused on one that has not.
func (s *signIn) start(ctx context.Context, ownKey func(instance string) bool) *frontdoor.SignIn {
	if s == nil {
		return nil
	}
	s.gate.RefuseKeyless(ownKey)
	go s.verifier.Run(ctx)
	go s.live.Watcher().Run(ctx)
	return &frontdoor.SignIn{Issuer: s.verifier.Issuer(), Scopes: s.verifier.Scopes(),
		Admit: func(ctx context.Context, token, resource, instance string) frontdoor.Admission {
			return admission(s.gate.Admit(ctx, token, resource, instance))
		}}
}

// keyFor is the key the gateway's own calls to instance (release
// detection, readiness, static-token callers) use: its own (cfg's),
// else, when people sign in, the key of the first access rule that names
// one for it (followed through reloads), so that --dagu-api-key is
// optional once the rules name theirs.
func (s *signIn) keyFor(cfg config.Config, instance string) restclient.KeySource {
	if s == nil || doctor.HasKey(cfg) {
		return daguKey(cfg)
	}
	k := ruleServiceKey{live: s.live, instance: instance}
	if rule := k.rule(); rule != nil {
		s.log.Info("the gateway's own calls to Dagu use the key of an access rule (no Dagu key of its own)", "instance", instance, "rule", rule.Name)
	} else {
		s.log.Warn("no Dagu API key is configured and no access rule names one: reads fail unless Dagu's authentication is off", "instance", instance)
	}
	if keyless := k.live.Policy().Keyless(instance); len(keyless) > 0 {
		s.log.Warn("access rules name no Dagu key for a Dagu without one of its own: their people are refused there", "instance", instance, "rules", keyless)
	}
	return k
}

// ruleServiceKey is the key of the first access rule that names one for
// instance, in the policy in service.
type ruleServiceKey struct {
	live     *policy.Live
	instance string
}

func (k ruleServiceKey) rule() *policy.Rule { return k.live.Policy().ServiceRule(k.instance) }

// Key is the rule's key; "" when no rule names one.
func (k ruleServiceKey) Key() (string, error) {
	if r := k.rule(); r != nil {
		return r.Key(k.instance).Key()
	}
	return "", nil
}

// Fingerprint identifies the rule's key.
func (k ruleServiceKey) Fingerprint() string {
	if r := k.rule(); r != nil {
		return r.Key(k.instance).Fingerprint()
	}
	return restclient.KeyFingerprint("")
}

// keyRuleOf names the access rule whose key key is now; "" for a key of
// the gateway's own.
func keyRuleOf(key restclient.KeySource) string {
	if k, ok := key.(ruleServiceKey); ok {
		if r := k.rule(); r != nil {
			return r.Name
		}
	}
	return ""
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
