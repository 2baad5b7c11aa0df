// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
)

// maxForwardedHops bounds the hops of a forwarding header looked at, from
// the right: the header's length is the client's choice.
const maxForwardedHops = 32

// trustedProxies are the networks of the proxies whose forwarding headers
// name the client (--trusted-proxies).
type trustedProxies []netip.Prefix

// contains reports whether addr is in one of the networks.
func (p trustedProxies) contains(addr netip.Addr) bool {
	for _, n := range p {
		if n.Contains(addr) {
			return true
		}
	}
	return false
}

// clientOf is the address of the request's client: its TCP peer's, or,
// when the peer is a trusted proxy, the rightmost hop of X-Forwarded-For
// (of Forwarded's for= when no X-Forwarded-For arrived) that is not a
// trusted proxy. A hop that does not parse ends the walk at the last
// address that did: what a proxy appended is believed, what a client
// wrote is not.
func (p trustedProxies) clientOf(r *http.Request) string {
	peer := remoteHost(r.RemoteAddr)
	client, err := netip.ParseAddr(peer)
	if err != nil || len(p) == 0 || !p.contains(client.Unmap()) {
		return peer
	}
	client = client.Unmap()
	for _, hop := range forwardedHops(r.Header) {
		addr, ok := parseHop(hop)
		if !ok {
			break
		}
		client = addr
		if !p.contains(addr) {
			break
		}
	}
	return client.String()
}

// forwardedHops lists at most maxForwardedHops hops of the request's
// forwarding header, rightmost first.
func forwardedHops(h http.Header) []string {
	if values := h.Values("X-Forwarded-For"); len(values) > 0 {
		return lastItems(values, ',', func(s string) string { return s })
	}
	return lastItems(h.Values("Forwarded"), ',', forValue)
}

// lastItems splits values (one header's lines, in order) at sep and
// returns the last maxForwardedHops items, rightmost first, each passed
// through pick and trimmed.
func lastItems(values []string, sep byte, pick func(string) string) []string {
	var out []string
	for i := len(values) - 1; i >= 0 && len(out) < maxForwardedHops; i-- {
		rest := values[i]
		for len(out) < maxForwardedHops {
			cut := strings.LastIndexByte(rest, sep)
			out = append(out, strings.TrimSpace(pick(rest[cut+1:])))
			if cut < 0 {
				break
			}
			rest = rest[:cut]
		}
	}
	return out
}

// forValue is the for= parameter of one Forwarded element (RFC 7239), or
// "" when it has none.
func forValue(element string) string {
	for param := range strings.SplitSeq(element, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(param), "=")
		if ok && strings.EqualFold(name, "for") {
			return value
		}
	}
	return ""
}

// parseHop reads one hop: an address, with or without a port, quoted or
// not, an IPv6 address in brackets. Obfuscated identifiers ("unknown",
// "_hidden") do not parse.
func parseHop(hop string) (netip.Addr, bool) {
	hop = strings.Trim(hop, `"`)
	if ap, err := netip.ParseAddrPort(hop); err == nil {
		return ap.Addr().Unmap(), true
	}
	addr, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(hop, "["), "]"))
	if err != nil || addr.Zone() != "" {
		return netip.Addr{}, false
	}
	return addr.Unmap(), true
}

// clientKey is the context key of the request's client address.
type clientKey struct{}

// withClient returns r carrying its client's address.
func withClient(r *http.Request, addr string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientKey{}, addr))
}

// clientAddr is the client's address withRequestID found, else the peer's.
func clientAddr(r *http.Request) string {
	if addr, ok := r.Context().Value(clientKey{}).(string); ok {
		return addr
	}
	return remoteHost(r.RemoteAddr)
}
