# Developer tasks for dagu-mcp-gateway. `make help` lists them.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO       ?= go
DOCKER   ?= docker
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN_DIR  := bin
BINARY   := $(BIN_DIR)/dagu-mcp-gateway
GEN_DIR  := internal/restclient/gen
FUZZTIME ?= 10s
IMAGE    ?= dagu-mcp-gateway:local
LOADTEST_CLIENTS      ?= 32
LOADTEST_DURATION     ?= 10s
LOADTEST_MIX          ?= dags,runs,dag_spec,dag
LOADTEST_GATEWAY_ARGS ?=
BENCH_DAGU_DURATION   ?= 10s
BENCH_DAGU_ROUNDS     ?= 3
BENCH_DAGU_PORTS      ?= 18191 18192 18193
BENCH_DAGU_DAG        ?= failing_job
BENCH_DAGU_STEP       ?= explode
BENCH_DAGU_SCENARIOS  ?= single investigate mix
BENCH_RT_DELAY        ?= 50ms
BENCH_RT_READS        ?= 5
BENCH_RT_PORTS        ?= 18290 18291 18292
BENCH_RT_GATEWAY      ?=
BENCH_RT_GATEWAY_FLAGS ?= --cache-ttl 0 --list-cache-ttl 0 --run-cache-size 0
BENCH_RT_MIX          ?= dags,dag,dag_spec,runs,run,run_latest,step_log,step_log_latest,foreach_items,foreach_items_latest,foreach_item,run_logs,run_logs_latest,dag_missing,wiki

.PHONY: help build test lint generate check-generate demo bench loadtest bench-dagu bench-roundtrips fuzz docker clean deploy-check release-snapshot hostile instances instances-rss browser oidc

help: ## List the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-z][a-z-]*:.*## / { printf "  %-15s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# The server build: -tags nodemo leaves out the demo and the fake Dagu's
# recordings, as the container image does (deploy/Dockerfile); `make demo`
# and plain `go build` keep them.
build: ## Build bin/dagu-mcp-gateway (the server build, without the demo), stamped with VERSION (git describe, else dev)
	CGO_ENABLED=0 $(GO) build -trimpath -tags nodemo -ldflags "-X main.version=$(VERSION)" -o $(BINARY) ./cmd/gateway

test: ## Run every test with the race detector (go test -race ./...)
	$(GO) test -race ./...

lint: ## Check formatting (gofmt), go vet, staticcheck and the package layering
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt would change these files (run gofmt -w on them):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(GO) vet -tags nodemo ./cmd/gateway
	$(GO) tool staticcheck ./...
	$(GO) test -count=1 ./internal/archtest/

generate: ## Regenerate the Dagu REST client from api/openapi.yaml
	$(GO) tool oapi-codegen -config api/oapi-codegen.yaml api/openapi.yaml

# Compares a fresh generation with the code in the tree, so it needs no
# commit and also catches generated files that are missing; then, inside a
# git checkout, also fails on uncommitted changes to the generated code.
check-generate: ## Fail if the generated REST client is stale
	@snapshot="$$(mktemp -d)"; \
	trap 'rm -rf "$$snapshot"' EXIT; \
	cp -R $(GEN_DIR)/. "$$snapshot"/; \
	$(MAKE) --no-print-directory generate; \
	if ! diff -ru "$$snapshot" $(GEN_DIR); then \
		echo "$(GEN_DIR) is stale: run 'make generate' and commit the result"; \
		exit 1; \
	fi
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git diff --exit-code -- $(GEN_DIR); \
	fi

demo: ## Run the gateway against the built-in fake Dagu
	$(GO) run ./cmd/gateway demo

bench: ## Run the benchmarks with allocation counts
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# Builds the gateway (as go run would, but the load test then knows the
# gateway's own process ID for its peak RSS), serves the demo on a free
# loopback port, loads it through MCP and stops it. BENCHMARKS.md has more.
loadtest: ## Load `gateway demo` with LOADTEST_CLIENTS MCP clients for LOADTEST_DURATION (LOADTEST_MIX; LOADTEST_GATEWAY_ARGS go to the demo)
	@dir="$$(mktemp -d)"; pid=""; \
	trap 'if [ -n "$$pid" ]; then kill "$$pid" 2>/dev/null || true; wait "$$pid" 2>/dev/null || true; fi; rm -rf "$$dir"' EXIT; \
	$(GO) build -o "$$dir/gateway" ./cmd/gateway; \
	"$$dir/gateway" demo --listen 127.0.0.1:0 --log-level warn $(LOADTEST_GATEWAY_ARGS) >"$$dir/demo.out" 2>"$$dir/demo.err" & pid=$$!; \
	url=""; for _ in $$(seq 100); do \
		url="$$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$$dir/demo.out" | head -n 1 || true)"; \
		if [ -n "$$url" ] || ! kill -0 "$$pid" 2>/dev/null; then break; fi; \
		sleep 0.1; \
	done; \
	if [ -z "$$url" ]; then echo "the demo gateway did not start:"; cat "$$dir/demo.err"; exit 1; fi; \
	$(GO) run ./cmd/loadtest -url "$$url" -clients $(LOADTEST_CLIENTS) -duration $(LOADTEST_DURATION) -mix $(LOADTEST_MIX) -pid "$$pid"

# Compares the gateway with the built-in MCP server of a real Dagu you run
# (never in CI). Two gateways are built and served against DAGU_URL with
# DAGU_REST_KEY: "first" with its caches off (first reads) and "cached" with
# the defaults; cmd/loadtest then loads both and Dagu's own /mcp (with
# DAGU_MCP_KEY) with the same clients and dagu_read arguments, in
# BENCH_DAGU_ROUNDS interleaved rounds per scenario, and prints the ratios.
# Scenarios: single (every target at 1 client), investigate (the failure
# investigation at 8 clients), mix (dags,runs,dag_spec,dag at 32 clients,
# with the gateways' peak RSS), scale (list and DAG reads for a Dagu seeded
# with many DAGs), reference (the reference read-tool read against a bare
# go-sdk server serving the gateway's own answer, instead of the built-in).
# BENCHMARKS.md has the setup.
bench-dagu: export DAGU_MCP_KEY := $(DAGU_MCP_KEY)
bench-dagu: export DAGU_API_KEY := $(DAGU_REST_KEY)
bench-dagu: ## Compare the gateway with a real Dagu's built-in /mcp: DAGU_URL= DAGU_REST_KEY= DAGU_MCP_KEY= (BENCH_DAGU_SCENARIOS, _ROUNDS, _DURATION, _DAG, _STEP, _PORTS)
	@if [ -z "$(DAGU_URL)" ] || [ -z "$(DAGU_REST_KEY)" ] || [ -z "$(DAGU_MCP_KEY)" ]; then \
		echo "usage: make bench-dagu DAGU_URL=http://127.0.0.1:18080 DAGU_REST_KEY=<rest_api key> DAGU_MCP_KEY=<mcp key>"; exit 2; \
	fi
	@dir="$$(mktemp -d)"; pids=""; \
	trap 'for p in $$pids; do kill "$$p" 2>/dev/null || true; wait "$$p" 2>/dev/null || true; done; rm -rf "$$dir"' EXIT; \
	$(GO) build -o "$$dir/gateway" ./cmd/gateway; \
	$(GO) build -o "$$dir/loadtest" ./cmd/loadtest; \
	set -- $(BENCH_DAGU_PORTS); first=$$1; cached=$$2; bare=$$3; \
	DAGU_URL="$(DAGU_URL)" "$$dir/gateway" serve --listen 127.0.0.1:$$first --log-level warn --list-cache-ttl 0 --run-cache-size 0 2>"$$dir/first.err" & pids="$$pids $$!"; firstpid=$$!; \
	DAGU_URL="$(DAGU_URL)" "$$dir/gateway" serve --listen 127.0.0.1:$$cached --log-level warn 2>"$$dir/cached.err" & pids="$$pids $$!"; cachedpid=$$!; \
	for port in $$first $$cached; do \
		for _ in $$(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$$port/readyz" 2>/dev/null && break; sleep 0.1; done; \
		curl -fsS -o /dev/null "http://127.0.0.1:$$port/readyz" || { echo "the gateway on port $$port is not ready:"; cat "$$dir"/*.err; exit 1; }; \
	done; \
	common="-url http://127.0.0.1:$$first/mcp -label first -pid $$firstpid -also cached=http://127.0.0.1:$$cached/mcp@$$cachedpid \
		-baseline $(DAGU_URL)/mcp -rounds $(BENCH_DAGU_ROUNDS) -duration $(BENCH_DAGU_DURATION) -dag $(BENCH_DAGU_DAG) -step $(BENCH_DAGU_STEP) -resolve-run"; \
	for scenario in $(BENCH_DAGU_SCENARIOS); do \
		echo "== $$scenario"; \
		case $$scenario in \
		single) "$$dir/loadtest" $$common -clients 1 -mix dags,runs,dag,dag_spec,run,run_latest,run_logs,step_log,reference ;; \
		investigate) "$$dir/loadtest" $$common -clients 8 -mix investigate ;; \
		mix) "$$dir/loadtest" $$common -clients 32 -mix dags,runs,dag_spec,dag ;; \
		scale) "$$dir/loadtest" $$common -clients 1 -mix dags,dags_200,dag,dag_missing,runs,run_latest ;; \
		reference) "$$dir/loadtest" -url "http://127.0.0.1:$$first/mcp" -serve-bare "127.0.0.1:$$bare" -mix reference & pids="$$pids $$!"; \
			for _ in $$(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$$bare/mcp" && break; sleep 0.1; done; \
			"$$dir/loadtest" $$common -baseline "http://127.0.0.1:$$bare/mcp" -baseline-label bare -baseline-key "" -clients 1 -mix reference ;; \
		*) echo "unknown scenario $$scenario (single, investigate, mix, scale, reference)"; exit 2 ;; \
		esac; \
	done

# Counts the sequential round trips each read waits on when Dagu is across
# a network (never in CI): cmd/loadtest -upstream-delay starts a proxy that
# holds every request to Dagu for BENCH_RT_DELAY, a gateway with every cache
# off is served with the proxy as its Dagu, and one client makes
# BENCH_RT_READS reads of each BENCH_RT_MIX target. Against DAGU_URL with
# DAGU_REST_KEY when given, else against the demo's fake Dagu (current
# release, with the foreach routes). BENCH_RT_GATEWAY names a gateway binary
# built elsewhere (an older commit, to compare; it serves the demo's Dagu too, so
# not the server build of make build); BENCH_RT_GATEWAY_FLAGS= (empty)
# serves it with its default caches. BENCHMARKS.md has the figures.
bench-roundtrips: export DAGU_API_KEY := $(DAGU_REST_KEY)
bench-roundtrips: ## Round trips per read with BENCH_RT_DELAY added per Dagu request: [DAGU_URL= DAGU_REST_KEY=] (else the demo's fake Dagu; BENCH_RT_MIX, _READS, _PORTS)
	@dir="$$(mktemp -d)"; pids=""; \
	trap 'for p in $$pids; do kill "$$p" 2>/dev/null || true; wait "$$p" 2>/dev/null || true; done; rm -rf "$$dir"' EXIT; \
	gw="$(BENCH_RT_GATEWAY)"; \
	if [ -z "$$gw" ]; then gw="$$dir/gateway"; $(GO) build -o "$$gw" ./cmd/gateway; fi; \
	$(GO) build -o "$$dir/loadtest" ./cmd/loadtest; \
	set -- $(BENCH_RT_PORTS); proxy=$$1; gateway=$$2; demo=$$3; \
	dagu="$(DAGU_URL)"; \
	if [ -z "$$dagu" ]; then \
		export DAGU_API_KEY="dagu_bench_$$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')"; \
		"$$gw" demo --listen 127.0.0.1:$$demo --log-level warn >"$$dir/demo.out" 2>"$$dir/demo.err" & pids="$$pids $$!"; \
		for _ in $$(seq 100); do \
			dagu="$$(sed -n 's/^ *Demo Dagu[^h]*\(http:[^ ]*\).*/\1/p' "$$dir/demo.out")"; [ -n "$$dagu" ] && break; sleep 0.1; \
		done; \
		[ -n "$$dagu" ] || { echo "the demo did not start:"; cat "$$dir/demo.err"; exit 1; }; \
		echo "Dagu: the demo's fake at $$dagu"; \
	fi; \
	reads=$$(( $(BENCH_RT_READS) * $$(tr ',' '\n' <<<"$(BENCH_RT_MIX)" | wc -l) )); \
	"$$dir/loadtest" -url http://127.0.0.1:$$gateway/mcp -upstream "$$dagu" -upstream-listen 127.0.0.1:$$proxy \
		-upstream-delay $(BENCH_RT_DELAY) -clients 1 -max-calls $$reads -duration 5m -resolve-run \
		-dag $(BENCH_DAGU_DAG) -step $(BENCH_DAGU_STEP) -mix $(BENCH_RT_MIX) & load=$$!; pids="$$pids $$load"; \
	for _ in $$(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$$proxy) 2>/dev/null && break; sleep 0.1; done; \
	DAGU_URL=http://127.0.0.1:$$proxy "$$gw" serve --listen 127.0.0.1:$$gateway --log-level warn \
		$(BENCH_RT_GATEWAY_FLAGS) 2>"$$dir/gateway.err" & pids="$$pids $$!"; \
	wait $$load

fuzz: ## Fuzz every Fuzz target for FUZZTIME each (default 10s)
	@for pkg in $$($(GO) list ./...); do \
		targets="$$($(GO) test -list '^Fuzz' "$$pkg")"; \
		for target in $$(grep '^Fuzz' <<<"$$targets" || true); do \
			echo "== $$pkg $$target"; \
			$(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) "$$pkg"; \
		done; \
	done

docker: ## Build the container image IMAGE (default dagu-mcp-gateway:local, what the deploy snippets use until a release exists; needs a running Docker-compatible engine)
	$(DOCKER) build -f deploy/Dockerfile --build-arg VERSION=$(VERSION) -t $(IMAGE) .

# HOSTILE_GATEWAY_BIN (an older build), HOSTILE_DAGU_URL, HOSTILE_DAGU_KEY,
# HOSTILE_DAGU_USER, HOSTILE_DAGU_PASSWORD and HOSTILE_BIG_LOG_URI reach the
# suite from the environment (tests/hostile/doc.go).
hostile: ## Attack a built gateway as hostile callers would (tests/hostile, a few minutes; fake Dagu unless HOSTILE_DAGU_URL)
	$(GO) vet -tags hostile ./tests/hostile/
	$(GO) test -tags hostile -count=1 -timeout 15m -v ./tests/hostile/

# Two Dagu servers (fakes of two releases; INSTANCES_DAGU_URL and
# INSTANCES_DAGU_KEY put a real current Dagu in place of one) behind one
# built gateway with --instances (tests/instances/doc.go).
instances: ## Run one built gateway in front of two Dagu servers (tests/instances, seconds)
	$(GO) vet -tags instances ./tests/instances/
	$(GO) test -tags instances -count=1 -timeout 5m -v ./tests/instances/

# The MCP App view in Debian's chromium, headless (tests/browser/run.sh;
# CHROMIUM names another binary); screenshots in tests/browser/artifacts/.
browser: ## Check the MCP App view in a real browser (tests/browser, a few minutes; needs chromium and npm)
	bash tests/browser/run.sh

# A real OpenID provider (npm's oidc-provider, pinned) and the SDKs' OAuth
# clients signing in to one built gateway (tests/oidc/run.sh, tests/oidc/doc.go).
oidc: ## Sign in with a real OpenID provider and read through an access policy (tests/oidc, a minute or two; needs npm)
	bash tests/oidc/run.sh

instances-rss: ## Measure the resident memory of 20 idle instances against one (about a minute; BENCHMARKS.md)
	INSTANCES_RSS=1 $(GO) test -tags instances -count=1 -timeout 10m -v -run TestIdleInstancesRSS ./tests/instances/

# The deployment checks and the release tooling live in the tools module
# (tools/go.mod), so Helm, kustomize and GoReleaser stay out of go.mod.
deploy-check: ## Render the Helm chart and kustomization and check them, the compose file, systemd unit, Dockerfile and .goreleaser.yaml
	cd tools && $(GO) test ./...

release-snapshot: ## Build release archives, checksums and SBOMs into dist/ without publishing (GoReleaser pinned in tools/go.mod)
	$(GO) tool -modfile=tools/go.mod goreleaser release --snapshot --clean

clean: ## Remove build output
	rm -rf $(BIN_DIR) dist
