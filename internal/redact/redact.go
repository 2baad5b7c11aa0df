// SPDX-License-Identifier: Apache-2.0

// Package redact shows values that may carry a secret without it. It
// imports no other package of the gateway, so the configuration and the
// shared state, both leaves of the layering, can use the one copy.
package redact

import "net/url"

// URL returns raw with its password, if any, replaced by "xxxxx"; "" stays
// "", and a URL that does not parse is shown as "(unparseable URL)", never
// as given (it may hold a password the parser could not find).
func URL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
