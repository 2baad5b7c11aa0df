// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"os"
	"strings"
)

// validateSignIn checks the sign-in settings: an issuer the gateway may
// trust, the access policy that must come with it (no policy would mean
// no access for anyone, a policy without an issuer no one to apply it
// to), audiences and scopes that can travel in a challenge, and no
// passthrough beside it. internal/policy reads the policy file when serve
// starts, against the targets and instances it serves.
func (c Config) validateSignIn() []error {
	if !c.SignIn() {
		switch {
		case c.AccessPolicyFile != "":
			return []error{fmt.Errorf("--%s needs --%s: the access policy decides what people who sign in with an OpenID provider read; set --%s (%s) to the provider's issuer URL, or unset --%s (%s)",
				flagAccessPolicy, flagOIDCIssuer, flagOIDCIssuer, envOf(flagOIDCIssuer), flagAccessPolicy, envOf(flagAccessPolicy))}
		case len(c.OIDCAudiences) > 0:
			return []error{fmt.Errorf("--%s needs --%s", flagOIDCAudience, flagOIDCIssuer)}
		case len(c.OIDCScopes) > 0:
			return []error{fmt.Errorf("--%s needs --%s", flagOIDCScope, flagOIDCIssuer)}
		}
		return nil
	}
	var errs []error
	if err := CheckIssuerURL("--"+flagOIDCIssuer, c.OIDCIssuer); err != nil {
		errs = append(errs, fmt.Errorf("%w (%s sets it too)", err, envOf(flagOIDCIssuer)))
	}
	if c.AccessPolicyFile == "" {
		errs = append(errs, fmt.Errorf("--%s needs --%s FILE (%s): the access policy's rules decide what each person who signs in reads, and without one nobody could read anything",
			flagOIDCIssuer, flagAccessPolicy, envOf(flagAccessPolicy)))
	} else if _, err := os.Stat(c.AccessPolicyFile); err != nil {
		errs = append(errs, fmt.Errorf("--%s: %w", flagAccessPolicy, err))
	}
	if c.Passthrough() {
		errs = append(errs, fmt.Errorf("--%s and --upstream-auth passthrough are two modes: with passthrough each caller's Authorization header carries its own Dagu key, with sign-in an access token of the provider; choose one", flagOIDCIssuer))
	}
	if strings.TrimSpace(c.OIDCGroupsClaim) == "" || strings.ContainsFunc(c.OIDCGroupsClaim, notClaimChar) {
		errs = append(errs, fmt.Errorf("--%s %q: name the claim of the person's groups, such as groups or realm_access.roles", flagOIDCGroupsClaim, c.OIDCGroupsClaim))
	}
	for _, a := range c.OIDCAudiences {
		if strings.ContainsFunc(a, notURLChar) {
			errs = append(errs, fmt.Errorf("--%s %q: an audience is printable ASCII without spaces, quotes or backslashes", flagOIDCAudience, a))
		}
	}
	for _, s := range c.OIDCScopes {
		if strings.ContainsFunc(s, notURLChar) {
			errs = append(errs, fmt.Errorf("--%s %q: a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 3.3); repeat the flag for several", flagOIDCScope, s))
		}
	}
	return errs
}

// notClaimChar reports a character a claim name may not have.
func notClaimChar(r rune) bool { return r <= ' ' || r == 0x7f }
