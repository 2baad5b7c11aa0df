// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// runDoctor checks the configured Dagu and prints what it supports.
func runDoctor(ctx context.Context, cfg config.Config, env environment) error {
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.UpstreamAuth = config.UpstreamAuthService // doctor checks with the key it is given
	g, err := newGateway(cfg, log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*cfg.UpstreamTimeout+5*time.Second)
	defer cancel()
	w := env.stdout
	fmt.Fprintf(w, "Dagu:         %s\n", cfg.DaguURL)
	caps, detectErr := g.adapter.Refresh(ctx)
	if detectErr == nil {
		fmt.Fprintf(w, "REST API:     %s%s\n", cfg.DaguURL, caps.APIBase)
	}
	probe := g.client.Probe(ctx)
	if !probe.OK {
		fmt.Fprintf(w, "Reachable:    no (%s: %s)\n", probe.Reason, probe.Detail)
		if detectErr != nil {
			fmt.Fprintf(w, "Detection:    %v\n", detectErr)
		}
		fmt.Fprintln(w, "\nThe gateway cannot read from this Dagu; fix the problem above and run doctor again.")
		return exitError{code: 1}
	}
	fmt.Fprintln(w, "Reachable:    yes; the API key is accepted for REST reads")
	if detectErr != nil {
		fmt.Fprintf(w, "Capabilities: could not be detected (%v); reads try the current Dagu's routes first\n", detectErr)
		return nil
	}
	printCapabilities(w, caps)
	return nil
}

// printCapabilities prints the detection: capabilities, then how each
// dagu_read target is served on this Dagu.
func printCapabilities(w io.Writer, caps restclient.Capabilities) {
	yesNo := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(w, "Version:      %s\n", caps.Version)
	fmt.Fprintf(w, "OpenAPI doc:  %s (without it, capabilities come from probes)\n", yesNo[caps.OpenAPI])
	fmt.Fprintln(w, "\nCapabilities:")
	for _, name := range restclient.CapabilityNames() {
		fmt.Fprintf(w, "  %-18s %s\n", name, yesNo[caps.Has(name)])
	}
	fmt.Fprintln(w, "\nTargets:")
	for _, s := range upstream.Support(caps) {
		line := fmt.Sprintf("  %-14s %s", s.Target, s.How)
		if s.Note != "" {
			line += ": " + s.Note
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "\nOn every Dagu:")
	for _, l := range permanentLimits {
		fmt.Fprintf(w, "  - %s\n", l)
	}
}
