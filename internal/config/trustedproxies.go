// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads --trusted-proxies: networks in CIDR notation
// (10.0.0.0/8, fd00::/8) or single addresses (a /32 or /128).
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, raw := range list {
		if strings.Contains(raw, ",") {
			// GATEWAY_TRUSTED_PROXIES is split at commas; a flag's value is not.
			return nil, fmt.Errorf("--%s %q: give one network or address per --%s and repeat the flag for several (GATEWAY_TRUSTED_PROXIES takes a comma-separated list)", flagTrustedProxies, raw, flagTrustedProxies)
		}
		p, err := parseProxy(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("--%s %q: %w; write a network such as 10.0.0.0/8 or fd00::/8, or one address (GATEWAY_TRUSTED_PROXIES sets it too, comma-separated)", flagTrustedProxies, raw, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// parseProxy reads one network or address, without a zone.
func parseProxy(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("not a network in CIDR notation")
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("not an IP address or network")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
