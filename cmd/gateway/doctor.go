// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// runDoctor wires a gateway with the configured key and runs the checks of
// internal/doctor with it; a Dagu the gateway cannot read from exits 1.
func runDoctor(ctx context.Context, cfg config.Config, env environment) error {
	// Errors only: doctor reports what it finds itself, and the outage
	// warnings a serving gateway logs would repeat it on stderr.
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	cfg.UpstreamAuth = config.UpstreamAuthService // doctor checks with the key it is given
	g, err := newGateway(cfg, log)
	if err != nil {
		return err
	}
	defer g.close()
	ctx, cancel := context.WithTimeout(ctx, 2*cfg.UpstreamTimeout+5*time.Second)
	defer cancel()
	deps := doctor.Deps{Detect: g.adapter.Refresh, Probe: g.client.Probe, RoleAccess: g.adapter.ProbeRoleAccess, Shared: g.shared, Targets: readtool.TargetRules()}
	if !doctor.Run(ctx, env.stdout, cfg, deps) {
		return exitError{code: 1}
	}
	return nil
}
