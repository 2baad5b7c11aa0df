package main

import (
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// degradations lists what dagu_read cannot fully answer on a Dagu with the
// given capabilities. It is the one place /readyz and doctor read from.
func degradations(caps restclient.Capabilities) []string {
	var out []string
	if !caps.ForeachRoutes {
		out = append(out,
			"foreach_items, foreach_item: answered from the summary a finished foreach step writes to its stdout; "+
				"no live progress, per-item times, nested items (parent) or body steps",
			"step_log with item and bodyStepName: unavailable (needs the /foreach REST routes)")
	}
	if !caps.EventLogs {
		out = append(out, "run: attemptId omitted (needs the /event-logs route)")
	}
	return append(out, "dags, dag_search: DAGs under paths.alt_dags_dir are not listed (Dagu's REST list omits them)")
}

// capabilityReport is the JSON form of detected capabilities.
func capabilityReport(caps restclient.Capabilities) map[string]any {
	return map[string]any{
		"version":       caps.Version,
		"foreachRoutes": caps.ForeachRoutes,
		"eventLogs":     caps.EventLogs,
		"detectedAt":    caps.DetectedAt.UTC().Format(time.RFC3339),
		"degraded":      degradations(caps),
	}
}
