// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/gcpolicy"
	"github.com/dagu-mcp-gateway/gateway/internal/startwarn"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// serveHTTP runs the HTTP front door until ctx ends. When ln is nil it
// listens on cfg.Listen. getenv supplies the OTEL_* tracing variables.
func serveHTTP(ctx context.Context, cfg config.Config, log *slog.Logger, getenv func(string) string, ln net.Listener) error {
	defer telemetry.StartTracing(log, getenv, version)()
	g, err := newGateway(cfg, log)
	if err != nil {
		return err
	}
	defer g.close()
	// Read once here to fail early; the front door reads the file again
	// whenever it changes.
	tokens, err := cfg.InboundTokens()
	if err != nil {
		return err
	}
	metrics := g.metricsHandler()
	if cfg.MetricsListen != "" {
		stopMetrics, _, err := frontdoor.StartMetrics(ctx, frontdoor.ServerOptions{Addr: cfg.MetricsListen, Handler: metrics, Logger: log, ShutdownTimeout: cfg.ShutdownTimeout})
		if err != nil {
			return fmt.Errorf("--metrics-listen %s: %w", cfg.MetricsListen, err)
		}
		defer stopMetrics() // serve returning for any reason closes the metrics listener
		metrics = nil       // /metrics moves off the MCP listener
	}
	g.adapter.Start(ctx)
	var verify frontdoor.Verifier
	if cfg.Passthrough() {
		if verify, err = g.callerVerifier(ctx); err != nil {
			return err
		}
	}
	proxies, err := config.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return err
	}
	handler, err := frontdoor.New(frontdoor.Options{
		MCP:          g.mcpHandler(),
		Metrics:      metrics,
		Ready:        g.ready,
		Passthrough:  cfg.Passthrough(),
		Verify:       verify,
		Tokens:       cfg.AuthTokens,
		TokenFile:    cfg.AuthTokenFile,
		AllowedHosts: cfg.AllowedHosts,
		PublicURL:    cfg.PublicURL,
		Listen:       cfg.Listen,
		Logger:       log,

		TrustedProxies: proxies,
		Memory:         g.memory,
	})
	if err != nil {
		return err
	}
	srv := frontdoor.NewServer(frontdoor.ServerOptions{Addr: cfg.Listen, Handler: handler, Logger: log, ShutdownTimeout: cfg.ShutdownTimeout})
	log.Info("gateway serving", "listen", cfg.Listen, "dagu", cfg.DaguURL, "version", version, "inbound_auth", len(tokens) > 0, "upstream_auth", cfg.UpstreamAuth)
	startwarn.WithoutKey(log, cfg)
	startwarn.MisleadingSettings(log, cfg, proxies)
	gcpolicy.Log(log, cfg.GCHeapFloor, getenv)
	if ln != nil {
		return srv.Serve(ctx, ln)
	}
	return srv.Run(ctx)
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
	g.adapter.Start(ctx)
	log.Info("gateway serving on stdio", "dagu", cfg.DaguURL, "version", version)
	startwarn.WithoutKey(log, cfg)
	gcpolicy.Log(log, cfg.GCHeapFloor, env.getenv)
	err = g.server.Run(ctx, &mcp.IOTransport{Reader: nopReadCloser{env.stdin}, Writer: nopWriteCloser{env.stdout}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client closed the stream or we were told to stop
	}
	return err
}
