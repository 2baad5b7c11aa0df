// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// Reached is what a serving gateway found of its Dagu at start: the
// outcome of its first release detection and of one readiness probe (with
// the key; in passthrough, of Dagu's health).
type Reached struct {
	Caps      restclient.Capabilities
	DetectErr error
	Probe     restclient.ProbeResult
	// Instance names the instance of --instances, and MCP the URL it is
	// served at; both empty for the one Dagu of --dagu-url.
	Instance, MCP string
	// KeyRule names the access rule whose Dagu key the gateway's own
	// calls use, on a Dagu without a key of its own; "" otherwise.
	KeyRule string
}

// LogReached logs, once at start, what the gateway reached: at info the
// Dagu URL, the release detected, its REST API and how reads
// authenticate; at error, when Dagu cannot be read (a refused key, nothing
// answering, a URL that reaches no Dagu API), doctor's sentence about why
// and the doctor command to run; at warn when Dagu is read but its release
// could not be detected. Nothing in it is secret: the key is named by
// where it comes from.
func LogReached(ctx context.Context, log *slog.Logger, cfg config.Config, r Reached) {
	attrs := []any{"dagu", cfg.DaguURL}
	if r.MCP != "" {
		attrs = append(attrs, "mcp", r.MCP)
	}
	switch {
	case !r.Probe.OK:
		log.ErrorContext(ctx, failedMessage(cfg, r), append(attrs, "problem", Problem(cfg, r.Probe), "next", doctorCommand(r.Instance))...)
	case r.DetectErr == nil:
		log.InfoContext(ctx, "Dagu reached", append(attrs, "release", orUnknown(r.Caps.Version),
			"rest_api", cfg.DaguURL+string(r.Caps.APIBase), "api_key", keyState(cfg, r.KeyRule))...)
	case cfg.Passthrough() && restclient.IsStatus(r.DetectErr, http.StatusUnauthorized):
		log.InfoContext(ctx, "Dagu reached; its release is detected with the first caller's key (passthrough: Dagu answers 401 without one)", attrs...)
	default:
		log.WarnContext(ctx, "Dagu reached, but its release could not be detected: reads try the current release's routes first",
			append(attrs, "error", r.DetectErr, "next", doctorCommand(r.Instance))...)
	}
}

// failedMessage is the start-up line of a Dagu the probe could not read
// from, by the probe's reason.
func failedMessage(cfg config.Config, r Reached) string {
	keyProblem := r.Probe.Reason == restclient.ProbeAuth || r.Probe.Reason == restclient.ProbeSurface
	switch {
	case keyProblem && !cfg.Passthrough() && !HasKey(cfg) && r.KeyRule == "":
		return "Dagu requires an API key and none is configured: reads fail until one is"
	case keyProblem && r.KeyRule != "":
		return "Dagu refused the Dagu key of the access rule " + r.KeyRule + ", which the gateway's own calls use: reads of its people fail until this is fixed"
	case keyProblem:
		return "Dagu refused the gateway's API key: reads fail until this is fixed"
	}
	return "Dagu could not be read: reads fail until this is fixed"
}

// doctorCommand is the doctor command that says more of an instance.
func doctorCommand(instance string) string {
	cmd := "dagu-mcp-gateway doctor"
	if instance != "" {
		cmd += " --instance " + instance
	}
	return fmt.Sprintf("run `%s` with the same settings for what to do", cmd)
}

// keyState says how the gateway's reads authenticate to a Dagu that
// answered the probe.
func keyState(cfg config.Config, keyRule string) string {
	switch {
	case cfg.Passthrough():
		return "each caller's own (passthrough)"
	case HasKey(cfg):
		return "accepted"
	case keyRule != "":
		return "the access rule " + keyRule + "'s, accepted"
	}
	return "none needed (Dagu's authentication is off)"
}

// orUnknown names a release Dagu did not report.
func orUnknown(version string) string {
	if version == "" {
		return "unknown"
	}
	return version
}
