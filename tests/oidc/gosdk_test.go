// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// visitWithGoSDK signs in as the visit says with the go-sdk (a person:
// auth.AuthorizationCodeHandler with dynamic client registration; the
// service account: extauth.ClientCredentialsHandler) and reads. It
// returns the access token the client ended up with ("" when refused).
func visitWithGoSDK(t *testing.T, v visit) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	handler, p := goHandler(t, v)
	client := mcp.NewClient(&mcp.Implementation{Name: "oidc-e2e-go", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: v.Endpoint, OAuthHandler: handler}, nil)
	if v.Rule == "" {
		if err == nil || !strings.Contains(err.Error(), "Forbidden") {
			cs.Close()
			t.Fatalf("connected, or not refused 403, with no rule for the caller: %v", err)
		}
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if p != nil && p.signIns != 1 {
		t.Errorf("%d sign-ins, want 1", p.signIns)
	}
	r := goReader{t: t, ctx: ctx, cs: cs}
	r.checkVisit(v)
	return token(t, ctx, handler)
}

// redirectURI is where the provider sends a person's browser back with
// the code: a native client's loopback redirect (RFC 8252). Nothing
// listens there: the test's browser stops at the redirect.
const redirectURI = "http://127.0.0.1/callback"

// goHandler is the OAuth handler of the visit's caller, and the person
// when it is one.
func goHandler(t *testing.T, v visit) (auth.OAuthHandler, *person) {
	t.Helper()
	if v.Login == "" {
		h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{Credentials: &oauthex.ClientCredentials{
			ClientID: serviceAccount, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: idp.secret}}})
		if err != nil {
			t.Fatal(err)
		}
		return h, nil
	}
	p := &person{login: v.Login, password: v.Password, redirectURI: redirectURI}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "oidc-e2e-go", RedirectURIs: []string{p.redirectURI}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code"}, ResponseTypes: []string{"code"}}},
		AuthorizationCodeFetcher: p.fetch,
	})
	if err != nil {
		t.Fatal(err)
	}
	return h, p
}

// token is the access token the handler holds.
func token(t *testing.T, ctx context.Context, h auth.OAuthHandler) string {
	t.Helper()
	ts, err := h.TokenSource(ctx)
	if err != nil || ts == nil {
		t.Fatalf("no token source: %v", err)
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

// goReader reads through one go-sdk session.
type goReader struct {
	t   *testing.T
	ctx context.Context
	cs  *mcp.ClientSession
}

// checkVisit checks the tool's targets, the reads that answer and those
// refused.
func (r goReader) checkVisit(v visit) {
	if v.Targets != nil {
		if got := r.targets(); !slices.Equal(got, v.Targets) {
			r.t.Errorf("tools/list offers the targets %v, want %v", got, v.Targets)
		}
	}
	for _, args := range v.Reads {
		if res := r.call(args); res.IsError {
			r.t.Errorf("%s: %s", args, structured(res))
		}
	}
	for _, args := range v.Refused {
		res := r.call(args)
		if got := structured(res); !res.IsError || !strings.Contains(got, `"code":"unauthorized"`) || !strings.Contains(got, "access rule "+v.Rule) {
			r.t.Errorf("%s: %s; want unauthorized naming the rule %s", args, got, v.Rule)
		}
	}
	for _, uri := range v.RefusedURIs {
		_, err := r.cs.ReadResource(r.ctx, &mcp.ReadResourceParams{URI: uri})
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || !strings.Contains(string(rpc.Data), `"code":"unauthorized"`) || !strings.Contains(rpc.Message, "access rule "+v.Rule) {
			r.t.Errorf("resources/read %s: %v; want unauthorized naming the rule %s", uri, err, v.Rule)
		}
	}
}

// call calls dagu_read.
func (r goReader) call(args string) *mcp.CallToolResult {
	r.t.Helper()
	res, err := r.cs.CallTool(r.ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil {
		r.t.Fatalf("%s: %v", args, err)
	}
	return res
}

// targets is the target enum of dagu_read in tools/list.
func (r goReader) targets() []string {
	r.t.Helper()
	tools, err := r.cs.ListTools(r.ctx, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "dagu_read" {
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties struct {
				Target struct {
					Enum []string `json:"enum"`
				} `json:"target"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			r.t.Fatal(err)
		}
		return schema.Properties.Target.Enum
	}
	r.t.Fatal("tools/list has no dagu_read")
	return nil
}

// structured is a tool result's structured content as JSON text.
func structured(res *mcp.CallToolResult) string {
	raw, _ := json.Marshal(res.StructuredContent)
	return string(raw)
}
