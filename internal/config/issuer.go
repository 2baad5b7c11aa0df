// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"net/url"
)

// CheckIssuerURL accepts the URL of an OpenID provider the gateway trusts
// (--oidc-issuer) or one its discovery document names (jwks_uri): a URL
// --public-url would accept (absolute, printable ASCII, no user
// information, query or fragment: it is written into the protected-
// resource metadata as it is) whose scheme is https, or http on a
// loopback host (a test or local IdP). label names it in the error.
func CheckIssuerURL(label, raw string) error {
	if _, err := PublicURLBase(raw); err != nil {
		return fmt.Errorf("%s %q: %w", label, raw, err)
	}
	if u, _ := url.Parse(raw); u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return fmt.Errorf("%s %q: http is accepted only on a loopback address (127.0.0.1, ::1, localhost): use https", label, raw)
	}
	return nil
}
