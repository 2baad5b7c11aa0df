// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/doctor"
	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// runDoctor runs the checks of internal/doctor on the configured Dagu, or
// on each instance of --instances (one with --instance), each under its
// name; a Dagu the gateway cannot read from exits 1, after the others are
// checked.
func runDoctor(ctx context.Context, cfg config.Config, instance string, env environment) error {
	targets, err := instances.Configs(cfg, instance, true)
	if err != nil {
		return err
	}
	usable := true
	for i, t := range targets {
		if t.Name != "" {
			if i > 0 {
				fmt.Fprintln(env.stdout)
			}
			fmt.Fprintf(env.stdout, "Instance %s (%s)\n", t.Name, t.Config.DaguURL)
		}
		if t.Err != nil {
			fmt.Fprintf(env.stdout, "  cannot check it: %v\n", t.Err)
			usable = false
			continue
		}
		ok, err := doctorOne(ctx, t.Config, env)
		if err != nil && t.Name == "" {
			return err
		}
		if err != nil {
			fmt.Fprintf(env.stdout, "  cannot check it: %v\n", err)
		}
		usable = usable && ok && err == nil
	}
	if !usable {
		return exitError{code: 1}
	}
	return nil
}

// doctorOne wires a gateway with the configured key and runs the checks
// of internal/doctor with it; ok is false for a Dagu it cannot read from.
func doctorOne(ctx context.Context, cfg config.Config, env environment) (ok bool, err error) {
	// Errors only: doctor reports what it finds itself, and the outage
	// warnings a serving gateway logs would repeat it on stderr.
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	cfg.UpstreamAuth = config.UpstreamAuthService // doctor checks with the key it is given
	g, err := newGateway(cfg, log)
	if err != nil {
		return false, err
	}
	defer g.close()
	ctx, cancel := context.WithTimeout(ctx, 2*cfg.UpstreamTimeout+5*time.Second)
	defer cancel()
	deps := doctor.Deps{Detect: g.adapter.Refresh, Probe: g.client.Probe, RoleAccess: g.adapter.ProbeRoleAccess, Shared: g.shared, Targets: readtool.TargetRules()}
	return doctor.Run(ctx, env.stdout, cfg, deps), nil
}
