// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"net/url"
	"strings"
)

// checkPublicURL accepts an empty --public-url or an absolute http(s) URL
// with a host and no user information, query or fragment: it is written
// into answers and a header's quoted value as it is.
func checkPublicURL(raw string) error {
	if raw == "" {
		return nil
	}
	if _, err := PublicURLBase(raw); err != nil {
		return fmt.Errorf("--%s %q: %w; write it like https://gw.example.com or https://gw.example.com/dagu (GATEWAY_PUBLIC_URL sets it too)", flagPublicURL, raw, err)
	}
	return nil
}

// PublicURLBase checks a --public-url and returns it without a trailing
// slash, so that the front door's paths can be appended.
func PublicURLBase(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case strings.IndexFunc(raw, notURLChar) >= 0:
		return "", fmt.Errorf("not a URL of printable ASCII without quotes, backslashes or spaces")
	case err != nil && !strings.Contains(raw, "://"):
		// A host and port without a scheme (gw.example.com:8090) does not
		// even parse: what is missing is the scheme.
		return "", fmt.Errorf("the scheme must be http or https")
	case err != nil:
		return "", fmt.Errorf("not a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("the scheme must be http or https")
	case u.Host == "" || u.Opaque != "":
		return "", fmt.Errorf("no host")
	case u.User != nil:
		return "", fmt.Errorf("user information is not allowed")
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("a query is not allowed")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "", fmt.Errorf("a fragment is not allowed")
	}
	if _, _, err := SplitHostMaybePort(u.Host); err != nil {
		return "", fmt.Errorf("host %q: %w", u.Host, err)
	}
	return strings.TrimRight(raw, "/"), nil
}

// notURLChar reports a character the URL may not carry: it would need
// escaping in the challenge's quoted value or in JSON.
func notURLChar(r rune) bool { return r <= ' ' || r > '~' || r == '"' || r == '\\' }
