// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// serveHTTP runs the HTTP front door until ctx ends. When ln is nil it
// listens on cfg.Listen. getenv supplies the OTEL_* tracing variables.
func serveHTTP(ctx context.Context, cfg config.Config, log *slog.Logger, getenv func(string) string, ln net.Listener) error {
	defer telemetry.StartTracing(log, getenv, version)()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o, metrics, closeAll, err := serveTarget(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		cancel() // background work and the metrics listener end first
		closeAll()
	}()
	// Read once here to fail early; the front door reads the file again
	// whenever it changes.
	tokens, err := cfg.InboundTokens()
	if err != nil {
		return err
	}
	if cfg.MetricsListen != "" {
		stopMetrics, _, err := frontdoor.StartMetrics(ctx, frontdoor.ServerOptions{Addr: cfg.MetricsListen, Handler: metrics, Logger: log, ShutdownTimeout: cfg.ShutdownTimeout})
		if err != nil {
			return fmt.Errorf("--metrics-listen %s: %w", cfg.MetricsListen, err)
		}
		defer stopMetrics() // serve returning for any reason closes the metrics listener
		metrics = nil       // /metrics moves off the MCP listener
	}
	proxies, err := config.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return err
	}
	o.Metrics, o.Passthrough, o.Tokens, o.TokenFile = metrics, cfg.Passthrough(), cfg.AuthTokens, cfg.AuthTokenFile
	o.AllowedHosts, o.PublicURL, o.Listen, o.Logger, o.TrustedProxies = cfg.AllowedHosts, cfg.PublicURL, cfg.Listen, log, proxies
	handler, err := frontdoor.New(o)
	if err != nil {
		return err
	}
	srv := frontdoor.NewServer(frontdoor.ServerOptions{Addr: cfg.Listen, Handler: handler, Logger: log, ShutdownTimeout: cfg.ShutdownTimeout})
	upstreamAttr := slog.String("dagu", cfg.DaguURL)
	if cfg.InstancesFile != "" {
		upstreamAttr = slog.String("instances_file", cfg.InstancesFile)
	}
	log.Info("gateway serving", "listen", cfg.Listen, upstreamAttr, "version", version, "inbound_auth", len(tokens) > 0, "upstream_auth", cfg.UpstreamAuth)
	if cfg.InstancesFile == "" {
		doctor.WarnWithoutKey(log, cfg)
	}
	doctor.WarnMisleadingSettings(log, cfg, proxies)
	logGCPolicy(log, cfg.GCHeapFloor, getenv)
	if ln != nil {
		return srv.Serve(ctx, ln)
	}
	return srv.Run(ctx)
}

// serveTarget wires what the front door serves, the one Dagu of --dagu-url
// or the instances of --instances: its options, the metrics handler and
// what releases it all.
func serveTarget(ctx context.Context, cfg config.Config, log *slog.Logger) (frontdoor.Options, http.Handler, func(), error) {
	if cfg.InstancesFile != "" {
		return serveInstances(ctx, cfg, log)
	}
	g, err := newGateway(cfg, log)
	if err != nil {
		return frontdoor.Options{}, nil, nil, err
	}
	g.adapter.Start(ctx)
	o := frontdoor.Options{MCP: g.mcpHandler(), Ready: g.ready, Memory: g.memory}
	if cfg.Passthrough() {
		if o.Verify, err = g.callerVerifier(ctx); err != nil {
			g.close()
			return frontdoor.Options{}, nil, nil, err
		}
	}
	return o, g.metricsHandler(), g.close, nil
}

// serveStdio runs the MCP server over stdin/stdout until the client closes
// the stream or ctx ends.
func serveStdio(ctx context.Context, cfg config.Config, log *slog.Logger, env environment) error {
	defer telemetry.StartTracing(log, env.getenv, version)()
	cfg.UpstreamAuth = config.UpstreamAuthService // stdio has no caller header: the key comes from the environment
	g, err := newGateway(cfg, log)
	if err != nil {
		return err
	}
	defer g.close()
	ctx, cancel := context.WithCancel(ctx)
	defer g.adapter.Wait() // the detection Start began writes to the log: it ends before we return
	defer cancel()
	g.adapter.Start(ctx)
	log.Info("gateway serving on stdio", "dagu", cfg.DaguURL, "version", version)
	doctor.WarnWithoutKey(log, cfg)
	logGCPolicy(log, cfg.GCHeapFloor, env.getenv)
	err = g.server.Run(ctx, &mcp.IOTransport{Reader: nopReadCloser{env.stdin}, Writer: nopWriteCloser{env.stdout}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client closed the stream or we were told to stop
	}
	return err
}
