// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/endpoints"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
	"github.com/dagu-mcp-gateway/gateway/internal/trust"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// fleet is serve with an instances file: what the process has once and the
// set of the instances' gateways, each with its own REST client, adapter,
// caches, shared-state scope, MCP server, metrics and key verdicts.
type fleet struct {
	cfg    config.Config
	log    *slog.Logger
	reg    *prometheus.Registry
	memory *membudget.Budget
	shared *sharedstate.Store
	limits *restclient.Limits
	// detections bounds the instances' capability detections in flight,
	// so that a reload adding many instances leaves REST slots to reads.
	detections *upstream.DetectionSlots
	parts      *toolParts
	lane       *trust.Verifier // passthrough: owns the lane of unknown keys; checks none itself
	ctx        context.Context // bounds the instances' background work
	// stores are the caches' stores of every instance: their bounds
	// (--run-cache-size among them) are the process's.
	stores *upstream.Stores
	builds atomic.Int64 // numbers each instance built: its caches' scope
	// signIn is the sign-in of --oidc-issuer; nil without one.
	signIn *signIn
	// ownKeys records, by instance name, whether the instance has a Dagu
	// key of its own (apiKeyFile).
	ownKeys sync.Map
	set     *endpoints.Set
	at      serving // where the instances are served, for their start-up lines
}

// newFleet builds the process's parts and an empty set of instances.
func newFleet(ctx context.Context, cfg config.Config, log *slog.Logger, at serving) (*fleet, error) {
	f := &fleet{cfg: cfg, log: log, reg: telemetry.NewRegistry(), ctx: ctx, detections: upstream.NewDetectionSlots(upstream.DefaultDetectionSlots), at: at}
	var budget restclient.SharedBudget
	var err error
	if f.shared, budget, f.memory, err = processParts(cfg, sharedScope("", ""), log, f.reg); err != nil {
		return nil, err
	}
	f.limits = restclient.NewLimits(restclient.Config{Concurrency: cfg.UpstreamConcurrency, SharedBudget: budget, BodyBudget: cfg.UpstreamBodyBudget, Memory: f.memory})
	f.stores, err = upstream.NewStores(upstream.StoresOptions{DAGCacheTTL: cfg.CacheTTL, ListCacheTTL: cfg.ListCacheTTL, RunCacheBytes: cfg.RunCacheSize,
		Registerer: f.reg})
	if err != nil {
		return nil, errors.Join(err, f.shared.Close())
	}
	if f.parts, err = newToolParts(cfg, log, f.reg, f.shared); err != nil {
		return nil, errors.Join(err, f.shared.Close())
	}
	if f.signIn, err = newSignIn(cfg, log, f.reg); err != nil {
		return nil, errors.Join(err, f.shared.Close())
	}
	if cfg.Passthrough() {
		noCheck := func(context.Context, string) (trust.Result, error) { return trust.Result{}, errors.New("no instance") }
		if f.lane, err = trust.New(trust.Options{Check: noCheck, Base: ctx, Registerer: f.reg, RecheckAfter: cfg.TrustRecheck}); err != nil {
			return nil, errors.Join(err, f.shared.Close())
		}
	}
	f.set = endpoints.New(f.build, cfg.UpstreamAuth, f.reg)
	return f, nil
}

// build wires one instance.
func (f *fleet) build(in instances.Instance) (*endpoints.Member, error) {
	if err := in.CheckKeyFile(); err != nil {
		return nil, err
	}
	cfg, log, reg := instances.ConfigOf(f.cfg, in), f.log.With("instance", in.Name), prometheus.NewRegistry()
	rc := daguClientConfig(cfg, log, reg)
	rc.Limits, rc.Key = f.limits, f.signIn.keyFor(cfg, in.Name)
	f.ownKeys.Store(in.Name, in.APIKeyFile != "")
	client, err := restclient.New(rc)
	if err != nil {
		return nil, fmt.Errorf("dagu client: %w", err)
	}
	scope := fmt.Sprintf("%s#%d", in.Name, f.builds.Add(1)) // a replaced instance's entries go with it
	g, err := assemble(cfg, log, reg, client, f.shared.Scoped(sharedScope(in.URL, in.Name)), f.parts, f.stores, scope)
	if err != nil {
		return nil, err
	}
	g.adapter.BoundDetections(f.detections)
	g.memory, g.serviceKey = f.memory, rc.Key
	g.announced, g.instance, g.mcpURL = f.at.announced, in.Name, f.at.instanceURL(in.Name)
	ctx, stop := context.WithCancel(f.ctx)
	m := &endpoints.Member{Endpoint: frontdoor.Endpoint{MCP: g.mcpHandler()}, Metrics: reg, Ready: g.ready}
	var verifier *trust.Verifier // nil without passthrough
	if f.lane != nil {
		if verifier, err = f.lane.Sibling(ctx, g.checkCredential); err != nil {
			stop()
			return nil, err
		}
		m.Endpoint.Verify = verifier.Verify
	}
	// The instance's background work (detection, key checks) ends with ctx
	// and is waited for before its connections close.
	m.Close = func() { stop(); g.adapter.Wait(); verifier.WaitChecks(); g.close(); f.stores.Drop(scope) }
	doctor.WarnInsecureTLS(log, cfg)
	g.adapter.Start(ctx)
	return m, nil
}

// serveInstances wires the instances of --instances for the front door
// (read again on change and on SIGHUP while ctx lasts): its options, the
// metrics handler and what releases it all.
func serveInstances(ctx context.Context, cfg config.Config, log *slog.Logger, at serving) (frontdoor.Options, http.Handler, func(), error) {
	f, err := newFleet(ctx, cfg, log, at)
	if err != nil {
		return frontdoor.Options{}, nil, nil, err
	}
	w, err := instances.NewWatcher(instances.WatcherOptions{Path: cfg.InstancesFile, Apply: f.set.Apply, Logger: log})
	if err != nil {
		f.close()
		return frontdoor.Options{}, nil, nil, err
	}
	go w.Run(ctx)
	o := frontdoor.Options{Instances: f.set, Ready: f.set.Ready, ReadyInstance: f.set.ReadyInstance, Memory: f.memory}
	if cfg.Passthrough() {
		o.Verify = f.set.VerifyMetrics
	}
	o.SignIn = f.signIn.start(ctx, f.hasOwnKey)
	return o, telemetry.GathererHandler(f.set, f.reg), f.close, nil
}

// hasOwnKey reports whether the instance has a Dagu key of its own.
func (f *fleet) hasOwnKey(name string) bool {
	own, _ := f.ownKeys.Load(name)
	return own == true
}

// close retires every instance and closes the shared state.
func (f *fleet) close() {
	f.set.Close()
	if err := f.shared.Close(); err != nil {
		f.log.Debug("closing the shared state", "error", err)
	}
}
