// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// maxForwardedHops bounds the hops of a forwarding header looked at, from
// the right: the header's length is the client's choice.
const maxForwardedHops = 32

// forwarding is how the client's address is read (--trusted-proxies,
// --client-ip-header): the networks of the proxies whose forwarding header
// names the client, and the one header they append to. The other header
// is never read: a proxy that appends to one passes a client's own
// writing in the other through.
type forwarding struct {
	proxies []netip.Prefix
	// header is config.HeaderXForwardedFor or config.HeaderForwarded; ""
	// only without proxies.
	header string
}

// newForwarding checks the pair as config.Config.Validate does: proxies
// need a header named, and a header needs proxies.
func newForwarding(proxies []netip.Prefix, header string) (forwarding, error) {
	name, err := config.ParseClientIPHeader(header)
	if err != nil {
		return forwarding{}, fmt.Errorf("front door: %w", err)
	}
	if (name == "") != (len(proxies) == 0) {
		return forwarding{}, errors.New("front door: trusted proxies and the client IP header come together: name the header the proxies append to")
	}
	return forwarding{proxies: proxies, header: name}, nil
}

// contains reports whether addr is in one of the networks.
func (f forwarding) contains(addr netip.Addr) bool {
	for _, n := range f.proxies {
		if n.Contains(addr) {
			return true
		}
	}
	return false
}

// clientOf is the address of the request's client: its TCP peer's, or,
// when the peer is a trusted proxy, the rightmost hop of the named
// forwarding header that is not a trusted proxy. A hop that does not
// parse ends the walk at the last address that did: what a proxy appended
// is believed, what a client wrote is not.
func (f forwarding) clientOf(r *http.Request) string {
	peer := remoteHost(r.RemoteAddr)
	client, err := netip.ParseAddr(peer)
	if err != nil || len(f.proxies) == 0 || !f.contains(client.Unmap()) {
		return peer
	}
	client = client.Unmap()
	for _, hop := range f.hops(r.Header) {
		addr, ok := parseHop(hop)
		if !ok {
			break
		}
		client = addr
		if !f.contains(addr) {
			break
		}
	}
	return client.String()
}

// headerXForwardedProto is the scheme header that goes with
// X-Forwarded-For.
const headerXForwardedProto = "X-Forwarded-Proto"

// protoOf is the scheme a trusted proxy says its client used: when the
// TCP peer is in --trusted-proxies, the rightmost value (what the nearest
// proxy wrote; what a client wrote before it is not believed) of
// X-Forwarded-Proto with --client-ip-header X-Forwarded-For, or of the
// proto= of the rightmost Forwarded element with Forwarded, when it is
// http or https (any case). The other family is never read. From any
// other peer, or without a usable value, ok is false.
func (f forwarding) protoOf(r *http.Request) (proto string, ok bool) {
	peer, err := netip.ParseAddr(remoteHost(r.RemoteAddr))
	if err != nil || len(f.proxies) == 0 || !f.contains(peer.Unmap()) {
		return "", false
	}
	var last []string
	switch f.header {
	case config.HeaderXForwardedFor:
		last = lastItems(r.Header.Values(headerXForwardedProto), ',', func(s string) string { return s })
	case config.HeaderForwarded:
		last = lastItems(r.Header.Values(config.HeaderForwarded), ',', func(s string) string { return paramOf(s, "proto") })
	}
	if len(last) == 0 {
		return "", false
	}
	switch v := strings.ToLower(strings.Trim(last[0], `"`)); v {
	case "http", "https":
		return v, true
	}
	return "", false
}

// hops lists at most maxForwardedHops hops of the named forwarding
// header, rightmost first.
func (f forwarding) hops(h http.Header) []string {
	switch f.header {
	case config.HeaderXForwardedFor:
		return lastItems(h.Values(config.HeaderXForwardedFor), ',', func(s string) string { return s })
	case config.HeaderForwarded:
		return lastItems(h.Values(config.HeaderForwarded), ',', forValue)
	}
	return nil
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
func forValue(element string) string { return paramOf(element, "for") }

// paramOf is the named parameter of one Forwarded element (RFC 7239), or
// "" when it has none.
func paramOf(element, param string) string {
	for pair := range strings.SplitSeq(element, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && strings.EqualFold(name, param) {
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
