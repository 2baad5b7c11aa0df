#!/usr/bin/env bash
# Interoperability tests: the official MCP TypeScript SDK, LangChain JS (its
# MCP adapters with ChatOpenAI and ChatAnthropic), the Vercel AI SDK and the
# OpenAI Agents SDK (the versions pinned in package-lock.json) against the
# gateway built from this checkout, over Streamable HTTP and stdio. The
# framework tests check what reaches the model with fake model endpoints:
# no model key, no network beyond the npm registry. Needs Go, Node 20
# or later, npm, and the npm registry (or an npm cache holding the locked
# packages). It never skips: a missing tool or an unreachable registry fails
# the run.
set -euo pipefail
cd "$(dirname "$0")"

fail() {
	echo "tests/interop: $*" >&2
	exit 1
}

command -v node >/dev/null || fail "node is not installed (Node 20 or later is needed)"
command -v npm >/dev/null || fail "npm is not installed"
command -v go >/dev/null || fail "go is not installed"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
	fail "Node $(node --version) is too old: 20 or later is needed"

npm ci --no-audit --no-fund ||
	fail "npm ci failed: the npm registry must be reachable to install the locked packages"

# One gateway binary for every test file, with the race detector when cgo
# is available (see buildGateway in gateway.mjs for why).
bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
race=()
[ "$(go env CGO_ENABLED)" = 1 ] && race=(-race)
(cd ../.. && go build "${race[@]}" -o "$bin_dir/gateway" ./cmd/gateway) ||
	fail "go build ./cmd/gateway failed"
export INTEROP_GATEWAY_BIN="$bin_dir/gateway"

node --test --test-timeout=120000
