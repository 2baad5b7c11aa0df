// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/mcpserver"
	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// gateway is one wired instance: upstream client, adapter, tool and MCP
// server, with its own metrics registry.
type gateway struct {
	log      *slog.Logger
	registry *prometheus.Registry
	client   *restclient.Client
	adapter  *upstream.Adapter
	server   *mcp.Server
	// ready answers the server's part of /readyz.
	ready func(ctx context.Context, detailed bool) (bool, any)
	// shared is the replicas' shared state; nil without --shared-state.
	shared *sharedstate.Store
	// memory is the one budget of everything in flight (--memory-budget):
	// the front door's requests and answers, Dagu's answers being read.
	memory *membudget.Budget
	// cfg is the gateway's configuration (an instance's, with --instances).
	cfg config.Config
	// announced closes once the command has said where it serves: what
	// the first detection reached is logged after that line.
	announced <-chan struct{}
	// instance and mcpURL name the instance of --instances and the URL it
	// is served at, for the start-up line; empty for the one Dagu.
	instance, mcpURL string
	// serviceKey is the key the gateway's own calls use (an access
	// rule's, when people sign in and the Dagu has none of its own).
	serviceKey restclient.KeySource
}

// alreadyAnnounced is the announcement of a gateway whose command logs no
// serving line before what it reached.
var alreadyAnnounced = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// reportReached logs what the first capability detection reached, with one
// readiness probe (doctor.LogReached), once the command has announced
// where it serves: the Dagu and its release, or doctor's sentence on why
// Dagu cannot be read.
func (g *gateway) reportReached(ctx context.Context, caps restclient.Capabilities, detectErr error) {
	select {
	case <-g.announced:
	case <-ctx.Done():
		return
	}
	probe := g.client.Probe
	if g.cfg.Passthrough() {
		probe = g.client.ProbeReachable // no key of its own: only whether Dagu answers
	}
	doctor.LogReached(ctx, g.log, g.cfg, doctor.Reached{Caps: caps, DetectErr: detectErr, Probe: probe(ctx), Instance: g.instance, MCP: g.mcpURL,
		KeyRule: keyRuleOf(g.serviceKey)})
}

// close releases what the gateway holds outside the process (the shared
// state's connections and leases, idle connections to Dagu).
func (g *gateway) close() {
	g.client.Close()
	if err := g.shared.Close(); err != nil {
		g.log.Debug("closing the shared state", "error", err)
	}
}

// newGateway builds the gateway for a validated configuration.
func newGateway(cfg config.Config, log *slog.Logger) (*gateway, error) {
	return newGatewayOn(cfg, log, telemetry.NewRegistry(), daguKey(cfg))
}

// newGatewayOn builds the gateway with its metrics on reg, reading Dagu
// with key when no request chose a credential.
func newGatewayOn(cfg config.Config, log *slog.Logger, reg *prometheus.Registry, key restclient.KeySource) (*gateway, error) {
	doctor.WarnInsecureTLS(log, cfg)
	// Another Dagu, or another gateway version (whose cached shapes may
	// differ), never shares entries with this one.
	shared, budget, memory, err := processParts(cfg, sharedScope(cfg.DaguURL, ""), log, reg)
	if err != nil {
		return nil, err
	}
	rc := daguClientConfig(cfg, log, reg)
	rc.Memory, rc.SharedBudget, rc.Key = memory, budget, key
	client, err := restclient.New(rc)
	if err != nil {
		_ = shared.Close()
		return nil, fmt.Errorf("dagu client: %w", err)
	}
	g, err := assemble(cfg, log, reg, client, shared, nil, nil, "")
	if err != nil {
		_ = shared.Close()
		return nil, err
	}
	g.memory, g.serviceKey = memory, key
	return g, nil
}

// processParts opens what a process has once: the shared state under
// scope, its cluster-wide upstream budget, and the memory budget.
func processParts(cfg config.Config, scope string, log *slog.Logger, reg *prometheus.Registry) (*sharedstate.Store, restclient.SharedBudget, *membudget.Budget, error) {
	shared, err := openShared(cfg, scope, log, reg)
	if err != nil {
		return nil, nil, nil, err
	}
	budget, err := sharedBudget(cfg, shared)
	memory := membudget.New("memory budget (--memory-budget)", cfg.MemoryBudget)
	memory.RaiseFloor(largestRead(cfg))
	if err == nil {
		err = membudget.RegisterMetrics(reg, memory)
	}
	if err != nil {
		return nil, nil, nil, errors.Join(err, shared.Close())
	}
	return shared, budget, memory, nil
}

// largestRead is the most one read reserves of the memory budget: its
// request, one Dagu answer of the largest size read as log text, and the
// largest answer. Every caller's share of the budget holds at least that
// much, so a single big read is never starved by someone else's many.
func largestRead(cfg config.Config) int64 {
	return frontdoor.RequestBaseBytes + readtool.AnswerReserve(cfg.MaxResponseBytes, int(cfg.MaxAnswerBytes))
}

// assemble wires the adapter, the tool and the MCP server around a client
// and the shared state (nil: none); parts and stores, when set, are the
// tool's parts and the caches' stores shared with other instances, scope
// this one's part of them (nil: its own).
func assemble(cfg config.Config, log *slog.Logger, reg *prometheus.Registry, client *restclient.Client, shared *sharedstate.Store, parts *toolParts, stores *upstream.Stores, scope string) (*gateway, error) {
	g := &gateway{log: log, registry: reg, client: client, shared: shared, cfg: cfg, announced: alreadyAnnounced}
	adapter, err := upstream.NewAdapter(upstream.AdapterOptions{
		Client: client, Logger: log, Registerer: reg, DAGCacheTTL: cfg.CacheTTL,
		ListCacheTTL: cfg.ListCacheTTL, RunCacheBytes: cfg.RunCacheSize, Shared: shared, Stores: stores, Scope: scope,
		OnFirstDetection: g.reportReached, GrantRecheck: grantRecheck(cfg),
	})
	if err != nil {
		return nil, fmt.Errorf("dagu adapter: %w", err)
	}
	if parts == nil {
		if parts, err = newToolParts(cfg, log, reg, shared); err != nil {
			return nil, err
		}
	}
	tool, err := newTool(cfg, log, reg, adapter, parts)
	if err != nil {
		return nil, err
	}
	server, err := mcpserver.New(version, tool, reg)
	if err != nil {
		return nil, err
	}
	g.adapter, g.server = adapter, server
	g.ready = doctor.NewReadiness(client, adapter, shared, cfg.Passthrough(), readtool.TargetRules(), log).Ready
	return g, nil
}

// newTool builds the read tool over up with the shared parts.
func newTool(cfg config.Config, log *slog.Logger, reg prometheus.Registerer, up readtool.Upstream, parts *toolParts) (*readtool.Tool, error) {
	return readtool.New(readtool.Options{
		Upstream: up, References: parts.references, Workbooks: parts.workbooks, Logger: log, Registerer: reg,
		CallTimeout: cfg.CallTimeout, TextContent: cfg.TextContent, ResourceLinks: cfg.ResourceLinks,
		Limiter: parts.limiter, Concurrency: parts.concurrency, DisabledTargets: cfg.DisabledTargets,
		PassthroughCredentials: cfg.Passthrough(), MaxAnswerBytes: int(cfg.MaxAnswerBytes), Lifetimes: cacheLifetimes(cfg),
	})
}

// cacheLifetimes are how long the caches cfg configures keep each kind of
// answer: what resources/read tells a client it may keep them.
func cacheLifetimes(cfg config.Config) readtool.CacheLifetimes {
	runs := upstream.DefaultRunCacheTTL
	if cfg.RunCacheSize <= 0 {
		runs = 0
	}
	return readtool.CacheLifetimes{Lists: cfg.ListCacheTTL, Specs: cfg.CacheTTL, FinishedRuns: runs, References: referenceTTL(cfg)}
}

// mcpHandler serves the MCP server over stateless Streamable HTTP (see
// frontdoor.MCPHandler).
func (g *gateway) mcpHandler() http.Handler { return frontdoor.MCPHandler(g.server, g.log) }

func (g *gateway) metricsHandler() http.Handler { return telemetry.MetricsHandler(g.registry) }
