// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2/clientcredentials"
)

// initialize is an MCP initialize request.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"oidc-e2e-raw","version":"0"}}}`

// postMCP posts an initialize to endpoint with the bearer ("": none) and
// returns the answer and its body (64 KiB at most).
func postMCP(t *testing.T, endpoint, bearer string) (*http.Response, string) {
	t.Helper()
	return post(t, endpoint, bearer, initialize)
}

// post posts a JSON-RPC body to endpoint with the bearer ("": none) and
// returns the answer and its body (64 KiB at most).
func post(t *testing.T, endpoint, bearer, body string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	return res, string(data)
}

// checkDiscovery checks what a client finds before it signs in at the
// endpoint: a 401 whose challenge names the metadata and the scope, and
// metadata that names the endpoint as resource, the provider and the
// scope.
func checkDiscovery(t *testing.T, base, endpoint string) {
	t.Helper()
	res, _ := postMCP(t, endpoint, "")
	challenge := res.Header.Get("WWW-Authenticate")
	meta := base + "/.well-known/oauth-protected-resource" // /mcp's, at the root
	if path := strings.TrimPrefix(endpoint, base); path != "/mcp" {
		meta += path
	}
	if res.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `resource_metadata="`+meta+`"`) ||
		!strings.Contains(challenge, `scope="`+scope+`"`) {
		t.Fatalf("without a token: %d %q; want 401 naming %s and the scope", res.StatusCode, challenge, meta)
	}
	prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), meta, endpoint, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(prm.AuthorizationServers, []string{idp.issuer}) || !slices.Equal(prm.ScopesSupported, []string{scope}) {
		t.Errorf("metadata of %s: servers %v, scopes %v", endpoint, prm.AuthorizationServers, prm.ScopesSupported)
	}
}

// serviceToken is a token of the service account straight from the
// provider's token endpoint, for resource with the scopes.
func serviceToken(t *testing.T, resource string, scopes ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cfg := clientcredentials.Config{ClientID: serviceAccount, ClientSecret: idp.secret, TokenURL: tokenEndpoint(t, ctx),
		Scopes: scopes, EndpointParams: url.Values{"resource": {resource}}}
	tok, err := cfg.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

// tokenEndpoint is the provider's token endpoint, from its discovery
// document.
func tokenEndpoint(t *testing.T, ctx context.Context) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, idp.issuer+"/.well-known/openid-configuration", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		TokenEndpoint string `json:"token_endpoint"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&doc); err != nil || doc.TokenEndpoint == "" {
		t.Fatalf("discovery: %v", err)
	}
	return doc.TokenEndpoint
}

// expectRefused checks that endpoint answers bearer with status and,
// for a 401 or 403 with a challenge, the error.
func expectRefused(t *testing.T, endpoint, bearer string, status int, oauthError string) {
	t.Helper()
	res, body := postMCP(t, endpoint, bearer)
	challenge := res.Header.Get("WWW-Authenticate")
	if res.StatusCode != status || oauthError != "" && !strings.Contains(challenge, `error="`+oauthError+`"`) {
		t.Errorf("%s: %d %q %.300s; want %d %s", endpoint, res.StatusCode, challenge, body, status, oauthError)
	}
	if strings.Contains(body, bearer) {
		t.Errorf("%s: the answer repeats the token", endpoint)
	}
}

// audience is the aud claim of a JWT, read without verifying it (the
// gateway verified it; the test only looks at what the client asked for).
func audience(t *testing.T, token string) []string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %d parts", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		Aud json.RawMessage `json:"aud"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatal(err)
	}
	var many []string
	if json.Unmarshal(claims.Aud, &many) == nil {
		return many
	}
	var one string
	if err := json.Unmarshal(claims.Aud, &one); err != nil {
		t.Fatal(err)
	}
	return []string{one}
}
