// SPDX-License-Identifier: Apache-2.0

// Package policy is the access policy of a gateway whose callers sign in
// with an OpenID provider (--access-policy): an ordered list of rules,
// each matching people by the claims of their token (groups, subject,
// email, scopes) and saying which instances and dagu_read targets they
// read, and with which Dagu key. The first rule that matches a person for
// the instance addressed wins; none means no access.
package policy

import (
	"slices"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/oidc"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// Any is the value that stands for every instance, target or subject.
const Any = "*"

// Policy is one version of the access policy file. It is never changed
// once parsed; a reload makes a new one.
type Policy struct {
	Rules []*Rule
}

// Rule is one rule of the policy.
type Rule struct {
	// Name names the rule in logs, metrics and refusals.
	Name string
	// Groups, Subjects, Emails and Scopes are what a token must carry to
	// match: for each list that is given, one of its values (a subject
	// "*" is anyone who signed in, an email "*@example.com" anyone at that
	// domain); an empty list asks nothing.
	Groups, Subjects, Emails, Scopes []string
	// Instances are the instances the rule covers; nil: every one.
	Instances []string
	// Targets are the dagu_read targets the rule allows; nil: every one.
	Targets []string
	// keyFiles are the Dagu key files of the rule's reads, by instance
	// (keyFileAny: the one key of a gateway of one Dagu).
	keyFiles map[string]string
	// keys read them, again whenever a file changes.
	keys map[string]restclient.KeySource
}

// keyFileAny is the instance of a key written as one file.
const keyFileAny = ""

// matches reports whether a person with identity id, reading instance,
// falls under the rule.
func (r *Rule) matches(id oidc.Identity, instance string) bool {
	return r.coversInstance(instance) &&
		anyOf(r.Groups, id.Groups) &&
		(len(r.Subjects) == 0 || slices.Contains(r.Subjects, Any) || slices.Contains(r.Subjects, id.Subject)) &&
		(len(r.Emails) == 0 || emailMatches(r.Emails, id.Email)) &&
		anyOf(r.Scopes, id.Scopes)
}

// coversInstance reports whether the rule covers instance.
func (r *Rule) coversInstance(instance string) bool {
	return r.Instances == nil || slices.Contains(r.Instances, instance)
}

// AllowsTarget reports whether the rule allows the dagu_read target.
func (r *Rule) AllowsTarget(target string) bool {
	return r.Targets == nil || slices.Contains(r.Targets, target)
}

// Key is the Dagu key of the rule's reads of instance; nil: the rule names
// none, and the gateway's own key (the instance's) is used.
func (r *Rule) Key(instance string) restclient.KeySource {
	if k, ok := r.keys[instance]; ok {
		return k
	}
	return r.keys[keyFileAny]
}

// anyOf reports whether want is empty or have holds one of its values.
func anyOf(want, have []string) bool {
	if len(want) == 0 {
		return true
	}
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// emailMatches reports whether email (already verified, or "") is one of
// want, compared without case, or at a domain of want's "*@domain".
func emailMatches(want []string, email string) bool {
	if email == "" {
		return false
	}
	email = strings.ToLower(email)
	_, domain, _ := strings.Cut(email, "@")
	for _, w := range want {
		w = strings.ToLower(w)
		if w == email || strings.HasPrefix(w, "*@") && w[2:] == domain {
			return true
		}
	}
	return false
}

// Match is the first rule that matches the person id reading instance;
// nil when none does.
func (p *Policy) Match(id oidc.Identity, instance string) *Rule {
	for _, r := range p.Rules {
		if r.matches(id, instance) {
			return r
		}
	}
	return nil
}

// ServiceKey is the key the gateway's own calls to instance use when it
// has none of its own (release detection, readiness): the key of the
// first rule that names one for instance; nil when none does.
func (p *Policy) ServiceKey(instance string) restclient.KeySource {
	if r := p.ServiceRule(instance); r != nil {
		return r.Key(instance)
	}
	return nil
}

// ServiceRule is the rule whose key ServiceKey is; nil when no rule names
// a key for instance.
func (p *Policy) ServiceRule(instance string) *Rule {
	for _, r := range p.Rules {
		if r.coversInstance(instance) && r.Key(instance) != nil {
			return r
		}
	}
	return nil
}

// Keyless names the rules covering instance that name no key for it,
// when another rule does: on an instance without a key of its own, their
// people cannot read (the gate refuses them rather than lend them another
// rule's key). nil when every rule covering instance names a key, or none
// does (a Dagu without authentication).
func (p *Policy) Keyless(instance string) []string {
	if p.ServiceRule(instance) == nil {
		return nil
	}
	var names []string
	for _, r := range p.Rules {
		if r.coversInstance(instance) && r.Key(instance) == nil {
			names = append(names, r.Name)
		}
	}
	return names
}

// Names lists the rules' names in order, for log lines.
func (p *Policy) Names() []string {
	names := make([]string, len(p.Rules))
	for i, r := range p.Rules {
		names[i] = r.Name
	}
	return names
}
