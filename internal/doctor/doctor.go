// SPDX-License-Identifier: Apache-2.0

// Package doctor checks a configured Dagu the way the doctor subcommand
// reports it: the key and where it comes from, whether Dagu accepts it and
// what to do when not, the capabilities detected, what the key's role
// keeps it from reading, and how each dagu_read target is served. /readyz
// asks it the same (Readiness: probed at most every 5 s, with the facts as
// JSON, CapabilityReport, for a trusted caller), and a starting gateway
// logs the part of its advice that needs no call to Dagu (startwarn.go).
package doctor

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// Deps are what doctor asks of the gateway the command wired: detection
// of Dagu's capabilities, the probe of a read with the configured key, the
// probe of the role-gated routes, the optional shared state, and the read
// targets with their support rules (readtool.TargetRules).
type Deps struct {
	Detect     func(ctx context.Context) (restclient.Capabilities, error)
	Probe      func(ctx context.Context) restclient.ProbeResult
	RoleAccess func(ctx context.Context, caps restclient.Capabilities) []upstream.RoleAccess
	Shared     *sharedstate.Store
	Targets    []model.TargetRule
}

// Run checks the configured Dagu and prints to w what it supports: which
// key it reads with, whether Dagu accepts it (and if not, why and what to
// do), the capabilities, and what the key's role keeps it from reading,
// each probed with the configured key. It reports false when the gateway
// cannot read from this Dagu.
func Run(ctx context.Context, w io.Writer, cfg config.Config, d Deps) bool {
	printSharedState(ctx, w, d.Shared)
	fmt.Fprintf(w, "Dagu:         %s\n", cfg.DaguURL)
	fmt.Fprintf(w, "API key:      %s\n", keyOrigin(cfg))
	caps, detectErr := d.Detect(ctx)
	if detectErr == nil {
		fmt.Fprintf(w, "REST API:     %s%s\n", cfg.DaguURL, caps.APIBase)
	}
	probe := d.Probe(ctx)
	if !probe.OK {
		fmt.Fprintf(w, "Reachable:    no (%s)\n", probe.Detail)
		if detectErr != nil && !unreachable(probe) {
			fmt.Fprintf(w, "Detection:    %v\n", detectErr)
		}
		fmt.Fprintf(w, "\n%s\n", adviceFor(cfg, probe))
		return false
	}
	if HasKey(cfg) {
		fmt.Fprintln(w, "Reachable:    yes; the API key is accepted for REST reads")
	} else {
		fmt.Fprintln(w, "Reachable:    yes; Dagu answers REST reads without a key (its authentication is off)")
	}
	if detectErr != nil {
		fmt.Fprintf(w, "Capabilities: could not be detected (%v); reads try the current Dagu's routes first\n", detectErr)
		return true
	}
	printCapabilities(w, caps, d.RoleAccess(ctx, caps), d.Targets)
	return true
}

// unreachable reports whether the probe never got an answer from Dagu: the
// detection failed for the same reason and has nothing to add.
func unreachable(p restclient.ProbeResult) bool {
	return p.Reason == restclient.ProbeNetwork || p.Reason == restclient.ProbeTLS
}

// HasKey reports whether a Dagu API key is configured.
func HasKey(cfg config.Config) bool { return cfg.DaguAPIKey != "" || cfg.DaguAPIKeyFile != "" }

// The settings of the Dagu server doctor's advice names, as the settings
// table names them.
var (
	keyFileSetting, _ = config.Lookup("dagu-api-key-file")
	keySetting, _     = config.Lookup("dagu-api-key")
	daguURLSetting, _ = config.Lookup("dagu-url")
	caFileSetting, _  = config.Lookup("dagu-ca-file")
)

// keyOrigin names where the key comes from, never the key itself.
func keyOrigin(cfg config.Config) string {
	switch {
	case cfg.DaguAPIKeyFile != "" && cfg.InstancesFile != "":
		return fmt.Sprintf("read from %s (the instance's apiKeyFile in %s)", cfg.DaguAPIKeyFile, cfg.InstancesFile)
	case cfg.DaguAPIKeyFile != "":
		return fmt.Sprintf("read from %s (--%s / %s)", cfg.DaguAPIKeyFile, keyFileSetting.Flag, keyFileSetting.Env)
	case cfg.DaguAPIKey != "":
		return fmt.Sprintf("given by --%s / %s", keySetting.Flag, keySetting.Env)
	}
	return fmt.Sprintf("none configured (%s / %s not set)", keyFileSetting.Env, keySetting.Env)
}

// printCapabilities prints the detection: capabilities, what the key's role
// keeps it from reading, then how each dagu_read target is served.
func printCapabilities(w io.Writer, caps restclient.Capabilities, access []upstream.RoleAccess, targets []model.TargetRule) {
	yesNo := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(w, "Version:      %s\n", caps.Version)
	fmt.Fprintf(w, "OpenAPI doc:  %s (without it, capabilities come from probes)\n", yesNo[caps.OpenAPI])
	fmt.Fprintln(w, "\nCapabilities:")
	for _, name := range restclient.CapabilityNames() {
		line := fmt.Sprintf("  %-18s %s", name, yesNo[caps.Has(name)])
		if note := accessNote(name, access); note != "" {
			line += " " + note
		}
		fmt.Fprintln(w, line)
	}
	if lost := accessLosses(access); len(lost) > 0 {
		fmt.Fprintln(w, "\nWith this key:")
		for _, l := range lost {
			fmt.Fprintf(w, "  - %s\n", l)
		}
	}
	fmt.Fprintln(w, "\nTargets:")
	for _, s := range upstream.Support(caps, targets) {
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

// capabilityRoutes ties a capability name to the role-gated route it
// stands for.
var capabilityRoutes = map[string]string{"eventLogs": restclient.RouteEventLogs}

// accessNote is what reading the capability's route with the key found.
func accessNote(capability string, access []upstream.RoleAccess) string {
	for _, a := range access {
		if capabilityRoutes[capability] != a.Route {
			continue
		}
		switch {
		case a.Allowed:
			return "(this key may read it)"
		case a.Status == http.StatusForbidden:
			return "(but this key gets 403: its role may not read it)"
		case a.Status == http.StatusServiceUnavailable:
			return "(but Dagu answers 503: the feature is switched off on this server)"
		}
		return "(could not be read with this key)"
	}
	return ""
}

// accessLosses says which targets lose what because the key may not read
// a route.
func accessLosses(access []upstream.RoleAccess) []string {
	var out []string
	for _, a := range access {
		switch {
		case a.Allowed:
		case a.Status == http.StatusForbidden:
			out = append(out, fmt.Sprintf("%s answers 403 (the key's role is too low; manager or admin may read it): %s", a.Route, a.Loss))
		default:
			out = append(out, fmt.Sprintf("%s could not be read: %s", a.Route, a.Loss))
		}
	}
	return out
}
