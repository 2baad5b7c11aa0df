#!/usr/bin/env bash
# End-to-end sign-in test: a real OpenID provider (npm's oidc-provider,
# pinned in package-lock.json; provider.mjs), the gateway built from this
# checkout as its resource server with an access policy, and real MCP
# clients that sign in and read through the rules: the go-sdk's
# AuthorizationCodeHandler and client-credentials handler (gosdk_test.go),
# the TypeScript SDK's OAuth client (tsclient.mjs) and mcp-remote
# (mcpremote.mjs), in front of one fake Dagu and of two instances. All on
# 127.0.0.1; no real browser (the test fills in the provider's login form).
# Needs Go, Node 20 or later, npm and the npm registry (or an npm cache
# holding the locked packages). It never skips: a missing tool or an
# unreachable registry fails the run.
set -euo pipefail
cd "$(dirname "$0")"

suite=oidc
# shellcheck source=../nodesuite.sh
source ../nodesuite.sh
install_and_build

(cd ../.. && go vet -tags oidc ./tests/oidc/ && OIDC_GATEWAY_BIN="$INTEROP_GATEWAY_BIN" go test -tags oidc -count=1 -timeout 10m -v ./tests/oidc/) ||
	fail "the sign-in test failed"
