// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net/url"
	"strconv"
	"time"
)

// restBase is the REST API's base path on a current Dagu.
const restBase = "/api/v1"

// runWindow is how far back the gateway's unfiltered run list reaches; the
// direct runs read asks for the same window.
const runWindow = 7 * 24 * time.Hour

// target is one kind of read: its dagu_read arguments and, where this tool
// knows one, the REST calls that fetch the same data directly.
type target struct {
	args func(c config) map[string]any
	// rest lists the REST paths (with queries) of the same data; nil when
	// there is no direct equivalent here.
	rest func(c config, now time.Time) []string
}

// targets are the reads -mix can name.
var targets = map[string]target{
	"dags": {
		args: func(config) map[string]any { return map[string]any{"target": "dags"} },
		rest: func(config, time.Time) []string { return []string{restBase + "/dags"} },
	},
	"runs": {
		args: func(config) map[string]any { return map[string]any{"target": "runs"} },
		rest: func(_ config, now time.Time) []string {
			return []string{restBase + "/dag-runs?fromDate=" + strconv.FormatInt(now.Add(-runWindow).Unix(), 10)}
		},
	},
	"dag": {
		args: func(c config) map[string]any { return map[string]any{"target": "dag", "name": c.dag} },
		rest: func(c config, _ time.Time) []string { return []string{restBase + "/dags/" + url.PathEscape(c.dag)} },
	},
	"dag_spec": {
		args: func(c config) map[string]any { return map[string]any{"target": "dag_spec", "name": c.dag} },
		rest: func(c config, _ time.Time) []string {
			return []string{restBase + "/dags/" + url.PathEscape(c.dag) + "/spec"}
		},
	},
	"run": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "run", "name": c.dag, "dagRunId": c.runID}
		},
		rest: func(c config, _ time.Time) []string { return []string{runPath(c)} },
	},
	"run_logs": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "run_logs", "name": c.dag, "dagRunId": c.runID}
		},
	},
	"step_log": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "step_log", "name": c.dag, "dagRunId": c.runID, "stepName": c.step}
		},
		rest: func(c config, _ time.Time) []string {
			step := runPath(c) + "/steps/" + url.PathEscape(c.step) + "/log?tail=200&stream="
			return []string{step + "stdout", step + "stderr"}
		},
	},
}

// runPath is the REST path of the configured run's details.
func runPath(c config) string {
	return restBase + "/dag-runs/" + url.PathEscape(c.dag) + "/" + url.PathEscape(c.runID)
}
