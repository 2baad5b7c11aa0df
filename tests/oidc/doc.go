// SPDX-License-Identifier: Apache-2.0

// Package oidc is the end-to-end test of signing in with an identity
// provider: a real OpenID provider (npm's oidc-provider, pinned in
// package-lock.json, set up by provider.mjs with dynamic client
// registration, resource indicators, JWT access tokens, PKCE, a groups
// claim and a service account), the gateway built from this checkout as
// its resource server with an access policy, and fake Dagus behind it that
// record which Dagu key each read carried.
//
// Real MCP clients do the whole sign-in: the go-sdk's
// auth.AuthorizationCodeHandler (gosdk_test.go) and the TypeScript SDK's
// OAuth client (tsclient.test.mjs, which the Go test runs), each
// discovering the metadata, registering, asking for a code with PKCE and
// the endpoint as resource, the test filling in the provider's login and
// consent forms over HTTP (no browser), and a service account with the
// client-credentials grant; and mcp-remote (mcpremote.mjs), which opens
// "the browser" browser.mjs through $BROWSER and takes the code at its own
// callback. Then they read through the rules of the
// policy, and are refused where a rule says so; once with one Dagu, once
// with two instances, each endpoint its own resource. The policy also
// changes under a running gateway (reload_test.go), and 1,000 tokens with
// unknown key IDs are counted in fetches of the provider's keys
// (forged_test.go).
//
// The test is behind the build tag oidc, outside `go test ./...`; run.sh
// installs the locked npm packages and runs it:
//
//	bash tests/oidc/run.sh
//	go test -tags oidc -count=1 -v ./tests/oidc/   # after npm ci in tests/oidc
//
// It builds ./cmd/gateway, or takes OIDC_GATEWAY_BIN.
package oidc
