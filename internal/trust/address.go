// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"net"
	"net/netip"
)

// origin is where a request came from, as the lane of unknown keys and
// the per-caller limits group it.
type origin struct {
	// host is the address for IPv4, its /64 for IPv6: one host is
	// commonly given a whole /64 and could otherwise take a fresh bucket
	// per address.
	host string
	// net is the IPv6 /48 ("" for IPv4): a site is commonly given one,
	// with 65,536 /64s in it.
	net string
}

// share is the key of the origin's fair share of the process's lane:
// the /48 for IPv6, else the address.
func (o origin) share() string {
	if o.net != "" {
		return o.net
	}
	return o.host
}

// originOf groups a client address (host:port or host). Text that is not
// an IP address (a Unix socket's peer) is its own group.
func originOf(clientAddr string) origin {
	host := clientAddr
	if h, _, err := net.SplitHostPort(clientAddr); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return origin{host: host}
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return origin{host: ip.String()}
	}
	return origin{host: prefixOf(ip, 64), net: prefixOf(ip, 48)}
}

// prefixOf is the network of ip with bits bits, as text.
func prefixOf(ip netip.Addr, bits int) string {
	p, err := ip.Prefix(bits)
	if err != nil {
		return ip.String()
	}
	return p.String()
}
