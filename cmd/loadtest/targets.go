// SPDX-License-Identifier: Apache-2.0

package main

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// restBase is the REST API's base path on a current Dagu.
const restBase = "/api/v1"

// runWindow is how far back the gateway's unfiltered run list reaches; the
// direct runs read asks for the same window.
const runWindow = 7 * 24 * time.Hour

// latest is the run ID that names a DAG's most recent run.
const latest = "latest"

// target is one kind of read: its dagu_read arguments and, where this tool
// knows one, the REST calls that fetch the same data directly.
type target struct {
	args func(c config) map[string]any
	// rest lists the REST paths (with queries) of the same data; nil when
	// there is no direct equivalent here.
	rest func(c config, now time.Time) []string
	// flow, when set, makes this target a sequence of other targets read
	// one after the other by the same client (an agent's investigation);
	// its latency is the whole sequence and args is unused.
	flow []string
	// onBaseline names the target read instead on a baseline endpoint that
	// does not accept this one's arguments (Dagu's built-in step_log takes
	// no query); empty when the baseline reads the same arguments.
	onBaseline string
	// wantToolError marks a read that answers a tool error by design (a
	// DAG that does not exist, with did-you-mean): that answer counts as
	// success and a success counts as an error.
	wantToolError bool
}

// targets are the reads -mix can name.
var targets = map[string]target{
	"dags": {
		args: func(config) map[string]any { return map[string]any{"target": "dags"} },
		rest: func(config, time.Time) []string { return []string{restBase + "/dags"} },
	},
	"dags_200": {
		args: func(config) map[string]any { return map[string]any{"target": "dags", "query": "perPage=200"} },
		rest: func(config, time.Time) []string { return []string{restBase + "/dags?perPage=200"} },
	},
	"runs": {
		args: func(config) map[string]any { return map[string]any{"target": "runs"} },
		rest: func(_ config, now time.Time) []string {
			return []string{restBase + "/dag-runs?fromDate=" + strconv.FormatInt(now.Add(-runWindow).Unix(), 10)}
		},
	},
	"runs_failed": {
		args: func(config) map[string]any { return map[string]any{"target": "runs", "query": "status=2"} },
		rest: func(_ config, now time.Time) []string {
			return []string{restBase + "/dag-runs?status=2&fromDate=" + strconv.FormatInt(now.Add(-runWindow).Unix(), 10)}
		},
	},
	"dag": {
		args: func(c config) map[string]any { return map[string]any{"target": "dag", "name": c.dag} },
		rest: func(c config, _ time.Time) []string { return []string{restBase + "/dags/" + url.PathEscape(c.dag)} },
	},
	"dag_missing": {
		args:          func(c config) map[string]any { return map[string]any{"target": "dag", "name": missingName(c)} },
		wantToolError: true,
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
		rest: func(c config, _ time.Time) []string { return []string{runPath(c, c.runID)} },
	},
	"run_latest": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "run", "name": c.dag, "dagRunId": latest}
		},
		rest: func(c config, _ time.Time) []string { return []string{runPath(c, latest)} },
	},
	"run_logs": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "run_logs", "name": c.dag, "dagRunId": c.runID}
		},
	},
	"run_logs_latest": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "run_logs", "name": c.dag, "dagRunId": latest}
		},
	},
	"step_log": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "step_log", "name": c.dag, "dagRunId": c.runID, "stepName": c.step}
		},
		rest: func(c config, _ time.Time) []string {
			step := runPath(c, c.runID) + "/steps/" + url.PathEscape(c.step) + "/log?tail=200&stream="
			return []string{step + "stdout", step + "stderr"}
		},
	},
	"step_log_latest": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "step_log", "name": c.dag, "dagRunId": latest, "stepName": c.step}
		},
	},
	"foreach_items": {
		args: func(c config) map[string]any { return foreachArgs(c, "foreach_items", c.foreachRunID) },
	},
	"foreach_items_latest": {
		args: func(c config) map[string]any { return foreachArgs(c, "foreach_items", latest) },
	},
	"foreach_item": {
		args: func(c config) map[string]any {
			a := foreachArgs(c, "foreach_item", c.foreachRunID)
			a["item"] = c.foreachItem
			return a
		},
	},
	"step_log_stderr": {
		args: func(c config) map[string]any {
			return map[string]any{"target": "step_log", "name": c.dag, "dagRunId": c.runID, "stepName": c.step, "query": "stream=stderr"}
		},
		onBaseline: "step_log",
	},
	"wiki": {
		args: func(config) map[string]any { return map[string]any{"target": "wiki"} },
	},
	"reference": {
		args: func(config) map[string]any { return map[string]any{"target": "reference", "name": "read-tool"} },
	},
	// An agent looking into a failure: the failed runs, the DAG's latest
	// run, that run's logs, the failed step's stderr.
	"investigate": {
		flow: []string{"runs_failed", "run_latest", "run_logs", "step_log_stderr"},
	},
}

// foreachArgs are the arguments of a read of the configured foreach step.
func foreachArgs(c config, target, runID string) map[string]any {
	return map[string]any{"target": target, "name": c.foreachDAG, "dagRunId": runID, "stepName": c.foreachStep}
}

// usesForeach reports whether the mix reads the foreach step.
func usesForeach(mix []string) bool {
	for _, name := range mix {
		for _, read := range readsOf(name) {
			if strings.HasPrefix(read, "foreach_") {
				return true
			}
		}
	}
	return false
}

// missingName is a DAG name one letter off the configured DAG, so the
// answer is not-found with a did-you-mean suggestion.
func missingName(c config) string { return c.dag + "x" }

// runPath is the REST path of one run of the configured DAG.
func runPath(c config, runID string) string {
	return restBase + "/dag-runs/" + url.PathEscape(c.dag) + "/" + url.PathEscape(runID)
}

// readsOf lists the single reads a target makes: the flow's members, or
// the target itself.
func readsOf(name string) []string {
	if t := targets[name]; len(t.flow) > 0 {
		return t.flow
	}
	return []string{name}
}

// argsOn is the dagu_read arguments of a single-read target on an endpoint;
// a baseline reads the target's baseline substitute when it names one.
func argsOn(c config, name string, baseline bool) map[string]any {
	t := targets[name]
	if baseline && t.onBaseline != "" {
		t = targets[t.onBaseline]
	}
	return t.args(c)
}
