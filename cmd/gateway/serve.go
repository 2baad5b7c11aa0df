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
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/frontdoor"
	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// serveHTTP runs the HTTP front door until ctx ends. When ln is nil it
// listens on cfg.Listen first, before anything is wired, so a busy address
// fails at once. It logs where it serves once the listener is bound, then
// (doctor.LogReached) what each Dagu's first detection reached. getenv
// supplies the OTEL_* tracing variables.
func serveHTTP(ctx context.Context, cfg config.Config, log *slog.Logger, getenv func(string) string, ln net.Listener) error {
	defer telemetry.StartTracing(log, getenv, version)()
	if ln == nil {
		var err error
		if ln, err = listen(cfg.Listen); err != nil {
			return err
		}
	}
	defer ln.Close() // Serve closes it too; this is for a return before
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	announced := make(chan struct{})
	at := serving{base: mcpBase(cfg, ln.Addr()), announced: announced}
	o, metrics, closeAll, err := serveTarget(ctx, cfg, log, at)
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
			return listenError(metricsListenFlag, cfg.MetricsListen, err)
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
	if o.ClientIPHeader, err = config.ParseClientIPHeader(cfg.ClientIPHeader); err != nil {
		return err
	}
	handler, err := frontdoor.New(o)
	if err != nil {
		return err
	}
	srv := frontdoor.NewServer(frontdoor.ServerOptions{Addr: cfg.Listen, Handler: handler, Logger: log, ShutdownTimeout: cfg.ShutdownTimeout})
	upstreamAttr := slog.String("dagu", cfg.DaguURL)
	if cfg.InstancesFile != "" {
		upstreamAttr = slog.String("instances_file", cfg.InstancesFile)
	}
	attrs := []any{"listen", ln.Addr().String(), "mcp", at.mcpURLs(o.Instances), upstreamAttr, "version", version,
		"inbound_auth", len(tokens) > 0 || cfg.SignIn(), "upstream_auth", cfg.UpstreamAuth}
	if cfg.SignIn() {
		attrs = append(attrs, "oidc_issuer", cfg.OIDCIssuer, "access_policy", cfg.AccessPolicyFile)
	}
	log.Info("gateway serving", attrs...)
	close(announced)
	if cfg.InstancesFile == "" && !cfg.SignIn() {
		doctor.WarnWithoutKey(log, cfg) // with sign-in, newSignIn said whose key is used
	}
	doctor.WarnMisleadingSettings(log, cfg, proxies)
	logGCPolicy(log, cfg.GCHeapFloor, getenv)
	logMemoryLimit(log, decideMemoryLimit(cfg, getenv), getenv)
	return srv.Serve(ctx, ln)
}

// listen binds the HTTP listener of --listen.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, listenError(config.FlagListen, addr, err)
	}
	return ln, nil
}

// listenError words a failed bind of the address a setting names: an
// address in use says what to do about it.
func listenError(flag, addr string, err error) error {
	s, _ := config.Lookup(flag)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("--%s %s: %w (another gateway or program listens there): stop it, or choose another address with --%s or %s",
			s.Flag, addr, syscall.EADDRINUSE, s.Flag, s.Env)
	}
	return fmt.Errorf("--%s %s: %w", s.Flag, addr, err)
}

// metricsListenFlag is the flag of the separate /metrics listener.
const metricsListenFlag = "metrics-listen"

// serving is where the gateway serves, for its start-up lines: the base
// URL its /mcp endpoints are under, and the announcement that closes once
// the serving line is logged (what each Dagu reached is logged after it).
type serving struct {
	base      string
	announced <-chan struct{}
}

// mcpBase is the URL clients reach the gateway at: --public-url, else the
// bound address (a wildcard one as 127.0.0.1).
func mcpBase(cfg config.Config, addr net.Addr) string {
	if cfg.PublicURL != "" {
		return strings.TrimSuffix(cfg.PublicURL, "/")
	}
	host, _ := config.ReachableHost(addr.String())
	return "http://" + host
}

// instanceURL is the URL an instance of --instances is served at.
func (s serving) instanceURL(name string) string { return s.base + "/dagu/" + name + "/mcp" }

// mcpURLs are the /mcp URLs the gateway serves: the one of --dagu-url, or
// each instance's (and /mcp, when one is named default).
func (s serving) mcpURLs(set frontdoor.Endpoints) any {
	if set == nil {
		return s.base + "/mcp"
	}
	var urls []string
	for _, name := range set.Names() {
		if name == instances.DefaultName {
			urls = append([]string{s.base + "/mcp"}, urls...)
		}
		urls = append(urls, s.instanceURL(name))
	}
	return urls
}

// serveTarget wires what the front door serves, the one Dagu of --dagu-url
// or the instances of --instances: its options, the metrics handler and
// what releases it all.
func serveTarget(ctx context.Context, cfg config.Config, log *slog.Logger, at serving) (frontdoor.Options, http.Handler, func(), error) {
	if cfg.InstancesFile != "" {
		return serveInstances(ctx, cfg, log, at)
	}
	reg := telemetry.NewRegistry()
	s, err := newSignIn(cfg, log, reg)
	if err != nil {
		return frontdoor.Options{}, nil, nil, err
	}
	g, err := newGatewayOn(cfg, log, reg, s.keyFor(cfg, instances.DefaultName))
	if err != nil {
		return frontdoor.Options{}, nil, nil, err
	}
	g.announced = at.announced
	g.adapter.Start(ctx)
	o := frontdoor.Options{MCP: g.mcpHandler(), Ready: g.ready, Memory: g.memory,
		SignIn: s.start(ctx, func(string) bool { return doctor.HasKey(cfg) })}
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
	announced := make(chan struct{})
	g.announced = announced
	g.adapter.Start(ctx)
	log.Info("gateway serving on stdio", "dagu", cfg.DaguURL, "version", version)
	close(announced)
	doctor.WarnWithoutKey(log, cfg)
	logGCPolicy(log, cfg.GCHeapFloor, env.getenv)
	logMemoryLimit(log, decideMemoryLimit(cfg, env.getenv), env.getenv)
	err = g.server.Run(ctx, &mcp.IOTransport{Reader: nopReadCloser{env.stdin}, Writer: nopWriteCloser{env.stdout}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client closed the stream or we were told to stop
	}
	return err
}
