# Shared by the Node test suites' run.sh (tests/interop, tests/browser),
# which source it from their own directory after setting suite: it checks
# Go and Node 20 or later at once, and install_and_build installs the locked
# npm packages and builds the gateway from this checkout for every test
# file of the suite. Nothing is skipped: a missing tool or an unreachable
# registry fails the run.

fail() {
	echo "tests/$suite: $*" >&2
	exit 1
}

command -v node >/dev/null || fail "node is not installed (Node 20 or later is needed)"
command -v npm >/dev/null || fail "npm is not installed"
command -v go >/dev/null || fail "go is not installed"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
	fail "Node $(node --version) is too old: 20 or later is needed"

# install_and_build installs the locked packages and builds one gateway
# binary for every test file (INTEROP_GATEWAY_BIN), with the race detector
# when cgo is available: .ci/run runs the suites after `go test -race ./...`,
# so the build reuses those packages, and the gateway runs instrumented under
# real clients (see buildGateway in tests/interop/gateway.mjs).
install_and_build() {
	npm ci --no-audit --no-fund ||
		fail "npm ci failed: the npm registry must be reachable to install the locked packages"
	bin_dir=$(mktemp -d)
	trap 'rm -rf "$bin_dir"' EXIT
	local race=()
	[ "$(go env CGO_ENABLED)" = 1 ] && race=(-race)
	(cd ../.. && go build "${race[@]}" -o "$bin_dir/gateway" ./cmd/gateway) ||
		fail "go build ./cmd/gateway failed"
	export INTEROP_GATEWAY_BIN="$bin_dir/gateway"
}
