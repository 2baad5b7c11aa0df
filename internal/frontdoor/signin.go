// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// SignIn is the OpenID provider callers sign in with (--oidc-issuer) and
// the access policy that decides what each person reads. The gateway is
// its resource server only: MCP clients sign in with the provider
// themselves (the MCP authorization spec), starting at the
// protected-resource metadata, which names the provider. cmd/gateway
// builds it over internal/oidc and internal/policy; the front door knows
// neither.
type SignIn struct {
	// Issuer is the provider's issuer URL: the metadata's
	// authorization_servers.
	Issuer string
	// Scopes are the scopes a token must carry: the metadata's
	// scopes_supported and the scope of every challenge.
	Scopes []string
	// Admit verifies token as presented at the MCP endpoint of instance
	// (default for /mcp) whose resource URL is resource, and finds the
	// access rule of the person it names.
	Admit func(ctx context.Context, token, resource, instance string) Admission
}

// Admission is SignIn's decision about one request's bearer token.
type Admission struct {
	// Outcome says whether the person is admitted, and if not why.
	Outcome Outcome
	// Shaped: the token has the shape of a JWT (a bearer that has not is
	// judged as a static token that is wrong).
	Shaped bool
	// Person and Caller (the key of per-person limits: issuer and sub)
	// name who the token says the caller is (also when no rule admits
	// them).
	Person reqctx.Person
	Caller string
	// Rule names the access rule that admitted the person, and Targets
	// are those it allows (nil: every one).
	Rule    string
	Targets []string
	// Credential is the rule's Dagu key for the instance; "": the
	// instance's own key. It never reaches a log.
	Credential string
	// Reason says why a token was refused (for the log and the caller);
	// never the token.
	Reason string
}

// Outcome is what SignIn decided.
type Outcome int

// The outcomes.
const (
	// Admitted: a valid token whose person a rule admits.
	Admitted Outcome = iota + 1
	// InvalidToken: not a token the gateway accepts (401 invalid_token).
	InvalidToken
	// InsufficientScope: a valid token without a required scope (403).
	InsufficientScope
	// NoRule: a valid token, and no rule of the policy admits its person
	// to the instance (403).
	NoRule
	// Unavailable: the provider's keys could not be fetched yet, so no
	// token can be checked, or the person's rule has no Dagu key to read
	// with; Reason says which (503).
	Unavailable
)

// String names the outcome in log lines.
func (o Outcome) String() string {
	switch o {
	case Admitted:
		return "admitted"
	case InvalidToken:
		return "invalid_token"
	case InsufficientScope:
		return "insufficient_scope"
	case NoRule:
		return "no_rule"
	case Unavailable:
		return "unavailable"
	}
	return "unknown"
}

// admit makes the verdict of a bearer token no static token matched: at
// an MCP endpoint, SignIn's decision; elsewhere (/metrics, /readyz) none,
// sign-in tokens being for the MCP endpoints only.
func (a *tokenAuth) admit(r *http.Request, token string, v authVerdict) authVerdict {
	instance, ok := instanceOfPath(r)
	if !ok {
		return v
	}
	origin, ok := publicOrigin(r)
	if !ok {
		return v
	}
	adm := a.signIn.Admit(r.Context(), token, origin+resourcePathOf(r), instance)
	v.signIn = &adm
	if adm.Outcome == NoRule {
		person := adm.Person
		v.person, v.caller = &person, adm.Caller // a valid token: named in the log, not admitted
	}
	if adm.Outcome != Admitted {
		return v
	}
	person := adm.Person
	return authVerdict{accepted: true, sent: true, caller: adm.Caller, instances: instanceScope{instance}, signIn: &adm, person: &person}
}

// refuseSignIn answers a request whose sign-in token was not admitted:
// 401 invalid_token, 403 insufficient_scope, 403 when no rule admits the
// person, 503 while the provider's keys cannot be had. It reports false
// for a verdict that is not a sign-in refusal.
func (a *tokenAuth) refuseSignIn(w http.ResponseWriter, r *http.Request, v authVerdict) bool {
	adm := v.signIn
	if adm == nil || adm.Outcome == Admitted || adm.Outcome == InvalidToken && !adm.Shaped && a.hasStatic() {
		return false
	}
	switch adm.Outcome {
	case InsufficientScope:
		w.Header().Set("WWW-Authenticate", a.challenge(r, `error="insufficient_scope"`))
		writeJSONText(w, http.StatusForbidden, map[string]string{"error": "insufficient_scope",
			"message": "The access token lacks a scope this gateway requires (" + adm.Reason + "): sign in again with " + a.signIn.Issuer + " asking for the scopes " + strings.Join(a.signIn.Scopes, " ") + "."})
	case NoRule:
		writeJSONText(w, http.StatusForbidden, map[string]string{"error": "forbidden", "message": noRuleMessage(adm, r)})
	case Unavailable:
		w.Header().Set("Retry-After", "5")
		writeJSONText(w, http.StatusServiceUnavailable, map[string]string{"error": "temporarily_unavailable",
			"message": "This gateway cannot admit sign-ins with " + a.signIn.Issuer + " right now (" + adm.Reason + "). Try again shortly, or tell the gateway's operator, who sees why in its log."})
	default:
		w.Header().Set("WWW-Authenticate", a.challenge(r, `error="invalid_token"`))
		writeJSONText(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token",
			"message": "The access token the request carried is not one this gateway accepts (" + adm.Reason + "). Sign in again with " + a.signIn.Issuer + "."})
	}
	return true
}

// noRuleMessage says who was refused where, and that the policy has no
// rule for them.
func noRuleMessage(adm *Admission, r *http.Request) string {
	who := adm.Person.Subject
	if adm.Person.Email != "" {
		who = adm.Person.Email + " (" + who + ")"
	}
	return "You signed in as " + who + ", and no rule of this gateway's access policy gives you access to " + resourcePathOf(r) +
		". Ask the gateway's operator to add you to the access policy."
}

// challenge is the WWW-Authenticate value of a sign-in refusal: the Bearer
// scheme with the metadata's URL, the scopes the gateway requires and
// extra (an error).
func (a *tokenAuth) challenge(r *http.Request, extra string) string {
	params := challengeParams(r)
	if scope := a.scope(); scope != "" {
		params = append(params, `scope="`+scope+`"`)
	}
	if extra != "" {
		params = append(params, extra)
	}
	return "Bearer " + strings.Join(params, ", ")
}

// scope is the scopes a token must carry, space-separated ("" for none).
func (a *tokenAuth) scope() string {
	if a.signIn == nil {
		return ""
	}
	return strings.Join(a.signIn.Scopes, " ")
}
