// SPDX-License-Identifier: Apache-2.0

package oidc

import (
	"encoding/json"
	"math"
	"strings"
	"time"
)

// Identity is who a verified token says the caller is, and what it may
// do: the claims the access policy matches and the logs name. It never
// holds the token.
type Identity struct {
	// Issuer is the token's iss, the configured issuer.
	Issuer string
	// Subject is the token's sub: who the caller is at the issuer.
	Subject string
	// Email is the token's email claim, left out when the token says it
	// is not verified (email_verified false).
	Email string
	// Groups are the values of the groups claim (--oidc-groups-claim).
	Groups []string
	// Scopes are the token's scopes (scope, else scp).
	Scopes []string
	// Expiry is when the token expires.
	Expiry time.Time
}

// Key is the identity's key for per-person limits: issuer and subject,
// which together name one person for good (an email may change hands).
func (id Identity) Key() string { return id.Issuer + "#" + id.Subject }

// Bounds of the claims kept.
const (
	// maxSubjectBytes bounds sub (OpenID Connect Core 2: at most 255
	// ASCII characters).
	maxSubjectBytes = 255
	// maxClaimValues bounds the groups and scopes kept.
	maxClaimValues = 256
)

// claims are a verified token's payload, member by member.
type claims map[string]json.RawMessage

// str is the string claim name ("" when missing or not a string).
func (c claims) str(name string) string {
	var s string
	if raw, ok := c[name]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// time is the NumericDate claim name (RFC 7519 2: seconds since the
// epoch, possibly with a fraction); ok is false when it is missing or not
// a finite number.
func (c claims) time(name string) (time.Time, bool) {
	raw, ok := c[name]
	if !ok {
		return time.Time{}, false
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e11 {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true
}

// list is the claim name as a list of strings: a JSON array of strings,
// or one string cut at spaces when split (scope) or kept whole (a groups
// claim of one group). A dotted name that is not a claim of its own walks
// into nested objects (realm_access.roles).
func (c claims) list(name string, split bool) []string {
	raw, ok := c.lookup(name)
	if !ok {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if split {
			return bounded(strings.Fields(one))
		}
		return bounded([]string{one})
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return bounded(many)
	}
	return nil
}

// lookup finds a claim by its name, else by a dotted path into nested
// objects.
func (c claims) lookup(name string) (json.RawMessage, bool) {
	if raw, ok := c[name]; ok {
		return raw, true
	}
	first, rest, nested := strings.Cut(name, ".")
	if !nested {
		return nil, false
	}
	var inner claims
	if raw, ok := c[first]; !ok || json.Unmarshal(raw, &inner) != nil {
		return nil, false
	}
	return inner.lookup(rest)
}

// bounded keeps the first maxClaimValues non-empty values.
func bounded(values []string) []string {
	out := make([]string, 0, min(len(values), maxClaimValues))
	for _, v := range values {
		if v != "" && len(out) < maxClaimValues {
			out = append(out, v)
		}
	}
	return out
}

// scopes are the token's scopes: scope (RFC 9068, a space-separated
// string), else scp (Entra ID's string, Okta's array).
func (c claims) scopes() []string {
	if _, ok := c["scope"]; ok {
		return c.list("scope", true)
	}
	return c.list("scp", true)
}

// email is the email claim unless email_verified says it is not verified
// (false, or "false" as some issuers write it).
func (c claims) email() string {
	if raw, ok := c["email_verified"]; ok {
		var verified bool
		if json.Unmarshal(raw, &verified) == nil && !verified || c.str("email_verified") == "false" {
			return ""
		}
	}
	return c.str("email")
}
