package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// runDoctor checks the configured Dagu and prints what it supports.
func runDoctor(ctx context.Context, cfg Config, env environment) error {
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	g, err := newGateway(cfg, log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*cfg.UpstreamTimeout+5*time.Second)
	defer cancel()
	w := env.stdout
	fmt.Fprintf(w, "Dagu:         %s (REST %s)\n", cfg.DaguURL, cfg.RESTBaseURL())
	probe := g.client.Probe(ctx)
	if !probe.OK {
		fmt.Fprintf(w, "Reachable:    no (%s: %s)\n", probe.Reason, probe.Detail)
		fmt.Fprintln(w, "\nThe gateway cannot read from this Dagu; fix the problem above and run doctor again.")
		return exitError{code: 1}
	}
	fmt.Fprintln(w, "Reachable:    yes; the API key is accepted for REST reads")
	caps, err := g.adapter.Refresh(ctx)
	if err != nil {
		fmt.Fprintf(w, "Capabilities: could not be detected (%v); reads still work, foreach targets try the newer routes first\n", err)
		return nil
	}
	printCapabilities(w, caps.Version, caps.ForeachRoutes, caps.EventLogs, degradations(caps))
	return nil
}

func printCapabilities(w io.Writer, version string, foreach, events bool, degraded []string) {
	yesNo := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(w, "Version:      %s\n", version)
	fmt.Fprintf(w, "Foreach item records (/foreach routes): %s\n", yesNo[foreach])
	fmt.Fprintf(w, "Event log (/event-logs, run attempt IDs): %s\n", yesNo[events])
	fmt.Fprintln(w, "\nAll 16 dagu_read targets are served. What degrades on this Dagu:")
	for _, d := range degraded {
		fmt.Fprintf(w, "  - %s\n", d)
	}
}
