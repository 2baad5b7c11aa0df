// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// Paths of the MCP endpoint, of its OAuth 2.0 Protected Resource Metadata
// (RFC 9728; the path-suffixed form is where a client that knows only the
// /mcp URL looks first, section 3.1) and of the registration endpoint OAuth
// clients guess when the metadata names no authorization server.
const (
	mcpPath               = "/mcp"
	protectedResourcePath = "/.well-known/oauth-protected-resource"
	protectedResourceMCP  = protectedResourcePath + mcpPath
	registrationPath      = "/register"
)

// serveProtectedResourceMetadata answers both metadata paths of /mcp
// (see serveMetadataOf).
func (a *tokenAuth) serveProtectedResourceMetadata(w http.ResponseWriter, r *http.Request) {
	a.serveMetadataOf(w, r, mcpPath)
}

// serveMetadataOf answers the RFC 9728 metadata of the MCP endpoint at
// path, for this request's public origin (see publicOrigin; without one
// that forms a safe URL, 400): the endpoint is the resource. With sign-in
// it names the OpenID provider (authorization_servers) and the scopes a
// token needs, so an MCP client signs in there; without, it names no
// authorization server on purpose: the gateway takes static tokens or
// Dagu keys, so OAuth-capable clients (mcp-remote, the TypeScript SDK)
// have nowhere to register or log in and should ask the user for a token.
func (a *tokenAuth) serveMetadataOf(w http.ResponseWriter, r *http.Request, path string) {
	origin, ok := publicOrigin(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad request: the Host header is not a host name or IP address")
		return
	}
	meta := oauthex.ProtectedResourceMetadata{
		Resource:               origin + path,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "dagu-mcp-gateway (read-only Dagu)",
	}
	if a.signIn != nil {
		meta.AuthorizationServers, meta.ScopesSupported = []string{a.signIn.Issuer}, a.signIn.Scopes
	}
	writeJSON(w, http.StatusOK, meta)
}

// msgNoOAuthPassthrough answers an OAuth client's dynamic client
// registration when callers bring their own Dagu keys.
const msgNoOAuthPassthrough = "This gateway does not use OAuth and offers no client registration: configure the client to send Authorization: Bearer <your Dagu API key with the rest_api surface>."

// noOAuthMessage answers it when the gateway has inbound tokens, naming
// the settings they were configured with.
func (a *tokenAuth) noOAuthMessage() string {
	return "This gateway does not use OAuth and offers no client registration: configure the client to send " +
		"Authorization: Bearer <token> with a token from the gateway's operator (set on the gateway with " + a.source() + ")."
}

// refuseRegistration answers POST /register. An OAuth client that finds no
// authorization server in the metadata falls back to treating the gateway's
// origin as one (the MCP TypeScript SDK's legacy behaviour, used by
// mcp-remote) and tries dynamic client registration there; an OAuth error
// body (RFC 6749 access_denied) makes it stop with this message instead of
// "HTTP 404: Invalid OAuth error response".
func refuseRegistration(a *tokenAuth, passthrough bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		message := msgNoOAuthPassthrough
		switch {
		case a.signIn != nil:
			message = "This gateway is an OAuth resource server only: register the client with " + a.signIn.Issuer +
				", the authorization server its protected-resource metadata names, and sign in there."
		case !passthrough:
			message = a.noOAuthMessage()
		}
		writeJSONText(w, http.StatusForbidden, map[string]string{"error": "access_denied", "error_description": message})
	})
}

// bearerChallenge is the WWW-Authenticate value of a 401: the Bearer scheme
// with the absolute URL of the metadata (RFC 9728 section 5.1) and, when a
// bearer token was sent but not accepted, error="invalid_token" (RFC 6750
// section 3.1). Without a public origin (see publicOrigin) the URL is left
// out.
func bearerChallenge(r *http.Request, tokenSent bool) string {
	params := challengeParams(r)
	if tokenSent {
		params = append(params, `error="invalid_token"`)
	}
	if len(params) == 0 {
		return "Bearer"
	}
	return "Bearer " + strings.Join(params, ", ")
}

// challengeParams is the resource_metadata parameter of a challenge: the
// absolute URL of the metadata of the endpoint r addressed; none without
// a public origin.
func challengeParams(r *http.Request) []string {
	origin, ok := publicOrigin(r)
	if !ok {
		return nil
	}
	suffix := "" // /mcp's metadata is at the root path, as before instances
	if path := resourcePathOf(r); path != mcpPath {
		suffix = path
	}
	return []string{`resource_metadata="` + origin + protectedResourcePath + suffix + `"`}
}

// originPolicy says where the URLs of the metadata and of 401 challenges
// come from: the configured public URL, else the request's Host when the
// host guard checked it, else the address the connection arrived on. An
// unchecked Host (a public listener without --allowed-host) is never
// written back: anyone can send any Host, and a client would be sent to it.
// Without a public URL the scheme is the connection's, or what a trusted
// proxy says (see scheme).
type originPolicy struct {
	public      string // --public-url without a trailing slash; "" for none
	hostChecked bool   // the host guard accepts only known Hosts
	// forwarded names the proxies whose word on the client's scheme is
	// believed, and the header they write it in.
	forwarded forwarding
}

type originPolicyKey struct{}

// withOriginPolicy hands p to the handlers of the requests h serves.
func withOriginPolicy(h http.Handler, p originPolicy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), originPolicyKey{}, p)))
	})
}

// publicOrigin is the URL prefix the gateway's own URLs are built on for
// this request, by the policy withOriginPolicy handed it (without one, the
// address the connection arrived on).
func publicOrigin(r *http.Request) (string, bool) {
	p, _ := r.Context().Value(originPolicyKey{}).(originPolicy)
	switch {
	case p.public != "":
		return p.public, true
	case p.hostChecked:
		return requestOrigin(r, p.scheme(r))
	default:
		return localOrigin(r, p.scheme(r))
	}
}

// localOrigin returns scheme://ip:port of the local address the request's
// connection was accepted on, which the client reached and the client did
// not choose.
func localOrigin(r *http.Request, scheme string) (string, bool) {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return "", false
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil || net.ParseIP(host) == nil {
		return "", false
	}
	return scheme + "://" + net.JoinHostPort(host, port), true
}

// requestOrigin returns scheme://host[:port] as the client addressed this
// server. The host comes from the Host header and is accepted only as an IP
// address or a DNS name (letters, digits, '-', '_' and dots), so nothing
// that could break out of a quoted header value or a URL reaches the
// answer.
func requestOrigin(r *http.Request, scheme string) (string, bool) {
	host, port, err := config.SplitHostMaybePort(r.Host)
	if err != nil {
		return "", false
	}
	host = strings.ToLower(host)
	if ip := net.ParseIP(host); ip != nil {
		if strings.Contains(host, ":") { // IPv6, including IPv4-mapped forms
			host = "[" + host + "]"
		}
	} else if !isDNSName(host) {
		return "", false
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// scheme is the scheme the client used: https on a TLS connection; else,
// when the TCP peer is one of --trusted-proxies, what that proxy wrote in
// the header family --client-ip-header names (X-Forwarded-Proto with
// X-Forwarded-For, the proto= of Forwarded with Forwarded), when it says
// http or https; else http. A client that is not a trusted proxy cannot
// choose it: the scheme names the resource a sign-in token's audience
// must match (issue 38's follow-up; before, any client's
// X-Forwarded-Proto was believed).
func (p originPolicy) scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if proto, ok := p.forwarded.protoOf(r); ok {
		return proto
	}
	return "http"
}

// isDNSName reports whether s is a host name of 1 to 63 character labels
// made of letters, digits, '-' and '_', not starting or ending with '-', 253
// characters at most.
func isDNSName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
