// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// loopbackNames are the host names a local client may use to reach a
// loopback listener. A DNS-rebinding page cannot send them: its requests
// carry the attacker's domain in Host and Origin.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// hostPattern is one accepted host; an empty port matches any port.
type hostPattern struct {
	host string
	port string
}

// hostGuard rejects requests whose Host or Origin is not an expected name
// for this server, the defence against DNS rebinding.
type hostGuard struct {
	enforce    bool
	listenPort string // "0" means: the port the connection arrived on
	local      []string
	allowed    []hostPattern
}

// newHostGuard decides the policy for a listen address. On a loopback
// listener the check always applies; elsewhere only when allowedHosts is
// not empty.
func newHostGuard(listen string, allowedHosts []string) (*hostGuard, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("front door: listen address %q: %w", listen, err)
	}
	g := &hostGuard{
		enforce:    config.IsLoopbackHost(host) || len(allowedHosts) > 0,
		listenPort: port,
		local:      append([]string(nil), loopbackNames...),
	}
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		g.local = append(g.local, strings.ToLower(host))
	}
	for _, a := range allowedHosts {
		h, p, err := config.SplitHostMaybePort(a)
		if err != nil {
			return nil, fmt.Errorf("front door: allowed host %q: %w", a, err)
		}
		g.allowed = append(g.allowed, hostPattern{host: strings.ToLower(h), port: p})
	}
	return g, nil
}

// wrap answers 403 before h when the Host or Origin header is not accepted.
func (g *hostGuard) wrap(h http.Handler) http.Handler {
	if !g.enforce {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.allowsRequest(r) {
			writeError(w, http.StatusForbidden, "forbidden: unexpected Host or Origin header")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// allowsRequest checks Host, and Origin when present.
func (g *hostGuard) allowsRequest(r *http.Request) bool {
	port := g.serverPort(r)
	defaultPort := "80"
	if r.TLS != nil {
		defaultPort = "443"
	}
	if !g.allows(r.Host, defaultPort, port) {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // includes the opaque origin "null"
	}
	originDefault := "80"
	if u.Scheme == "https" {
		originDefault = "443"
	}
	return g.allows(u.Host, originDefault, port)
}

// serverPort is the port local names must carry: the configured one, or
// with port 0 the one the connection was accepted on.
func (g *hostGuard) serverPort(r *http.Request) string {
	if g.listenPort != "0" {
		return g.listenPort
	}
	if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, p, err := net.SplitHostPort(addr.String()); err == nil {
			return p
		}
	}
	return g.listenPort
}

// allows reports whether hostport names this server. defaultPort applies
// when hostport has none; serverPort is the port of local names.
func (g *hostGuard) allows(hostport, defaultPort, serverPort string) bool {
	host, port, err := config.SplitHostMaybePort(hostport)
	if err != nil {
		return false
	}
	host = strings.ToLower(host)
	if port == "" {
		port = defaultPort
	}
	for _, name := range g.local {
		if host == name && port == serverPort {
			return true
		}
	}
	for _, a := range g.allowed {
		if host == a.host && (a.port == "" || a.port == port) {
			return true
		}
	}
	return false
}
