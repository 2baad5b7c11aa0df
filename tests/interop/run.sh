#!/usr/bin/env bash
# Interoperability tests: the official MCP TypeScript SDK (1.x, and 2.x in
# both protocol eras), the mcp-remote bridge, LangChain JS (its MCP adapters
# with ChatOpenAI and ChatAnthropic), the Vercel AI SDK and the OpenAI
# Agents SDK (the versions pinned in package-lock.json), and the go-sdk
# client in both eras (gosdk_test.go, the version go.mod pins), against the
# gateway built from this checkout, over Streamable HTTP and stdio. The
# framework tests check what reaches the model with fake model endpoints:
# no model key, no network beyond the npm registry. Needs Go, Node 20
# or later, npm, and the npm registry (or an npm cache holding the locked
# packages). It never skips: a missing tool or an unreachable registry fails
# the run.
set -euo pipefail
cd "$(dirname "$0")"

suite=interop
# shellcheck source=../nodesuite.sh
source ../nodesuite.sh
install_and_build

node --test --test-timeout=120000
(cd ../.. && go test -tags interop -count=1 ./tests/interop/) ||
	fail "the go-sdk client's test (gosdk_test.go) failed"
