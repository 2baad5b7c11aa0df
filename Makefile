# Developer tasks for dagu-mcp-gateway. `make help` lists them.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO       ?= go
DOCKER   ?= docker
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN_DIR  := bin
BINARY   := $(BIN_DIR)/gateway
GEN_DIR  := internal/restclient/gen
FUZZTIME ?= 10s
IMAGE    ?= dagu-mcp-gateway:$(VERSION)
LOADTEST_CLIENTS      ?= 32
LOADTEST_DURATION     ?= 10s
LOADTEST_MIX          ?= dags,runs,dag_spec,dag
LOADTEST_GATEWAY_ARGS ?=

.PHONY: help build test lint generate check-generate demo bench loadtest fuzz docker clean deploy-check release-snapshot

help: ## List the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-z][a-z-]*:.*## / { printf "  %-15s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

build: ## Build bin/gateway, stamped with VERSION (git describe, else dev)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o $(BINARY) ./cmd/gateway

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

fuzz: ## Fuzz every Fuzz target for FUZZTIME each (default 10s)
	@for pkg in $$($(GO) list ./...); do \
		targets="$$($(GO) test -list '^Fuzz' "$$pkg")"; \
		for target in $$(grep '^Fuzz' <<<"$$targets" || true); do \
			echo "== $$pkg $$target"; \
			$(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) "$$pkg"; \
		done; \
	done

docker: ## Build the container image IMAGE (needs a running Docker-compatible engine)
	$(DOCKER) build -f deploy/Dockerfile --build-arg VERSION=$(VERSION) -t $(IMAGE) .

# The deployment checks and the release tooling live in the tools module
# (tools/go.mod), so Helm, kustomize and GoReleaser stay out of go.mod.
deploy-check: ## Render the Helm chart and kustomization and check them, the compose file, systemd unit, Dockerfile and .goreleaser.yaml
	cd tools && $(GO) test ./...

release-snapshot: ## Build release archives, checksums and SBOMs into dist/ without publishing (GoReleaser pinned in tools/go.mod)
	$(GO) tool -modfile=tools/go.mod goreleaser release --snapshot --clean

clean: ## Remove build output
	rm -rf $(BIN_DIR) dist
