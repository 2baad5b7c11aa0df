// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"net/http"
	"strings"
)

// The forwarding headers --client-ip-header can name.
const (
	// HeaderXForwardedFor is X-Forwarded-For: a comma list of addresses.
	HeaderXForwardedFor = "X-Forwarded-For"
	// HeaderForwarded is RFC 7239's Forwarded: elements with for=.
	HeaderForwarded = "Forwarded"
)

// ParseClientIPHeader reads --client-ip-header: "" (none: the client is
// the TCP peer), X-Forwarded-For or Forwarded, in any case; it returns
// the header's canonical name.
func ParseClientIPHeader(name string) (string, error) {
	switch http.CanonicalHeaderKey(strings.TrimSpace(name)) {
	case "":
		return "", nil
	case HeaderXForwardedFor:
		return HeaderXForwardedFor, nil
	case HeaderForwarded:
		return HeaderForwarded, nil
	}
	return "", fmt.Errorf("--%s %q: name the one header your proxies append the client's address to, %s or %s (GATEWAY_CLIENT_IP_HEADER sets it too)",
		flagClientIPHeader, name, HeaderXForwardedFor, HeaderForwarded)
}

// checkClientAddress checks --client-ip-header against --trusted-proxies:
// each needs the other, so that no header is believed from anyone and no
// header is chosen for the operator.
func checkClientAddress(header string, proxies []string) error {
	name, err := ParseClientIPHeader(header)
	if err != nil {
		return err
	}
	switch {
	case name == "" && len(proxies) > 0:
		return fmt.Errorf("--%s is set but --%s is not: name the one header your proxies append the client's address to, "+
			"--%s %s or --%s %s (GATEWAY_CLIENT_IP_HEADER); the gateway never picks one itself, since a client can write the other",
			flagTrustedProxies, flagClientIPHeader, flagClientIPHeader, HeaderXForwardedFor, flagClientIPHeader, HeaderForwarded)
	case name != "" && len(proxies) == 0:
		return fmt.Errorf("--%s %s is set but --%s is not: give the networks of the proxies whose %s is believed (GATEWAY_TRUSTED_PROXIES), or unset --%s to count callers by their TCP peer",
			flagClientIPHeader, name, flagTrustedProxies, name, flagClientIPHeader)
	}
	return nil
}
