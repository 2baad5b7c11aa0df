// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// Outcome is what the gate decided about one token.
type Outcome string

// The outcomes, which label the decisions metric.
const (
	Admitted          Outcome = "admitted"
	InvalidToken      Outcome = "invalid_token"
	InsufficientScope Outcome = "insufficient_scope"
	NoRule            Outcome = "no_rule"
	Unavailable       Outcome = "unavailable"
)

// noRuleLabel is the rule label of a decision no rule made.
const noRuleLabel = "none"

// Gate admits the people who sign in: it verifies the access token they
// present (oidc.Verifier) and finds their rule in the policy in service.
type Gate struct {
	verifier  *oidc.Verifier
	live      *Live
	decisions *prometheus.CounterVec
	// ownKey reports whether an instance has a Dagu key of its own; nil:
	// every one has.
	ownKey func(instance string) bool
}

// RefuseKeyless makes the gate refuse a person whose rule names no Dagu
// key for an instance without one of its own (ownKey false) while
// another rule names one: the gateway's own calls read that instance
// with the other rule's key, and the person must not. Call it before the
// gate admits anyone.
func (g *Gate) RefuseKeyless(ownKey func(instance string) bool) { g.ownKey = ownKey }

// NewGate builds the gate over a verifier and the live policy; its
// decisions are counted by rule and outcome on reg (nil: not counted).
func NewGate(v *oidc.Verifier, live *Live, reg prometheus.Registerer) (*Gate, error) {
	decisions := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dagu_gateway_signin_decisions_total",
		Help: "Sign-in tokens presented at an MCP endpoint, by the access rule that admitted the person (none when none did) and outcome (admitted, invalid_token, insufficient_scope, no_rule, unavailable). Never by person.",
	}, []string{"rule", "outcome"})
	if err := promreg.Own(reg, decisions); err != nil {
		return nil, err
	}
	return &Gate{verifier: v, live: live, decisions: decisions}, nil
}

// Admission is the gate's decision about one token.
type Admission struct {
	Outcome Outcome
	// Shaped: the token has the shape of a JWT.
	Shaped bool
	// Identity is who a valid token names (also when no rule admits them).
	Identity oidc.Identity
	// Rule admitted the person; nil otherwise.
	Rule *Rule
	// Key is the rule's Dagu key for the instance; "": the instance's own.
	Key string
	// Reason says why a token was refused; never the token.
	Reason string
}

// Admit verifies token as presented at the endpoint of instance whose
// resource URL is resource, and finds the first rule that admits its
// person to instance.
func (g *Gate) Admit(ctx context.Context, token, resource, instance string) Admission {
	a := g.admit(ctx, token, resource, instance)
	rule := noRuleLabel
	if a.Rule != nil {
		rule = a.Rule.Name
	}
	g.decisions.WithLabelValues(rule, string(a.Outcome)).Inc()
	return a
}

func (g *Gate) admit(ctx context.Context, token, resource, instance string) Admission {
	shaped := oidc.LooksLikeJWT(token)
	id, err := g.verifier.Verify(ctx, token, resource)
	if r, refused := oidc.IsRefusal(err); refused {
		outcome := InvalidToken
		switch r.Kind {
		case oidc.InsufficientScope:
			outcome = InsufficientScope
		case oidc.Unavailable:
			outcome = Unavailable
		}
		return Admission{Outcome: outcome, Shaped: shaped, Reason: r.Reason}
	}
	p := g.live.Policy()
	rule := p.Match(id, instance)
	if rule == nil {
		return Admission{Outcome: NoRule, Shaped: shaped, Identity: id, Reason: "no rule of the access policy matches"}
	}
	a := Admission{Outcome: Admitted, Shaped: shaped, Identity: id, Rule: rule}
	if source := rule.Key(instance); source != nil {
		key, err := source.Key()
		if err != nil || key == "" {
			return Admission{Outcome: Unavailable, Shaped: shaped, Identity: id, Rule: rule,
				Reason: "the Dagu key file of the access rule " + rule.Name + " cannot be read"}
		}
		a.Key = key
	} else if g.ownKey != nil && !g.ownKey(instance) && p.ServiceRule(instance) != nil {
		return Admission{Outcome: Unavailable, Shaped: shaped, Identity: id, Rule: rule,
			Reason: "the access rule " + rule.Name + " names no Dagu key for " + instance + ", which has none of its own"}
	}
	return a
}
