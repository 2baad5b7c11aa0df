// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"net/http"
	"strings"
)

// authorize applies the API's credential check; it writes the refusal and
// returns false when the request may not proceed.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	if !s.authRequired() || s.credentialAccepted(r) {
		return true
	}
	token, hasToken := bearerToken(r.Header.Get("Authorization"))
	if s.dialect.auth == authKeySurfaces && hasToken && s.opts.MCPOnlyKey != "" && token == s.opts.MCPOnlyKey {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("API key is not allowed for this surface\n"))
		return false
	}
	scheme := "Bearer"
	if s.opts.APIKey == "" {
		scheme = "Basic"
	}
	w.Header().Set("WWW-Authenticate", scheme+` realm="restricted"`)
	w.WriteHeader(http.StatusUnauthorized)
	return false
}

// authRequired reports whether the server checks credentials at all.
func (s *Server) authRequired() bool {
	return s.opts.APIKey != "" || s.basicEnabled()
}

// basicEnabled reports whether basic credentials are configured and the
// release accepts them next to its token (1.17).
func (s *Server) basicEnabled() bool {
	return s.dialect.auth == authStaticToken && s.opts.BasicUsername != ""
}

// credentialAccepted checks the Authorization header: the API key (the
// static token on 1.17), the MCP-only key where keys have no surfaces
// (1.29 to 2.6), or basic credentials where configured.
func (s *Server) credentialAccepted(r *http.Request) bool {
	header := r.Header.Get("Authorization")
	if token, ok := bearerToken(header); ok {
		switch {
		case s.opts.APIKey != "" && token == s.opts.APIKey:
			return true
		case s.dialect.auth == authKeys && s.opts.MCPOnlyKey != "" && token == s.opts.MCPOnlyKey:
			return true
		}
		return false
	}
	user, password, ok := r.BasicAuth()
	return ok && s.basicEnabled() && user == s.opts.BasicUsername && password == s.opts.BasicPassword
}

func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}
