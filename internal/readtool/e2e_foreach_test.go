// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

const (
	foreachRun = `"name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be","stepName":"each"`
	nestedRun  = `"name":"nested_foreach_job","dagRunId":"0356UUqK8fRz2LbWnT4cYd","stepName":"regions"`
)

// foreachCases runs against both generations of Dagu; the golden names get
// the mode as a prefix and the call budgets differ per mode.
func foreachCases(routes bool) []goldenCase {
	calls := func(withRoutes, aggregate int) int {
		if routes {
			return withRoutes
		}
		return aggregate
	}
	return []goldenCase{
		{"items", `{"target":"foreach_items",` + foreachRun + `}`, calls(1, 2)},
		{"items-failed", `{"target":"foreach_items",` + foreachRun + `,"query":"status=failed"}`, calls(1, 2)},
		{"items-paged-uri", `{"uri":"dagu://runs/foreach_job/0356UUnVEGj0qj7EkXG3Be/steps/each/foreach?page=2&perPage=2"}`, calls(1, 2)},
		{"items-latest", `{"target":"foreach_items","name":"foreach_job","dagRunId":"latest","stepName":"each"}`, calls(2, 2)},
		{"item", `{"target":"foreach_item",` + foreachRun + `,"item":"1"}`, calls(1, 2)},
		{"item-uri", `{"uri":"dagu://runs/foreach_job/0356UUnVEGj0qj7EkXG3Be/steps/each/foreach/0"}`, calls(1, 2)},
		{"item-missing", `{"target":"foreach_item",` + foreachRun + `,"item":"7"}`, -1},
		{"not-a-foreach-step", `{"target":"foreach_items","name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be","stepName":"after"}`, -1},
		{"body-step-log", `{"target":"step_log",` + foreachRun + `,"item":"1","bodyStepName":"work"}`, -1},
		{"body-step-log-uri", `{"uri":"dagu://runs/foreach_job/0356UUnVEGj0qj7EkXG3Be/steps/each/foreach/1/steps/work/logs?stream=stderr"}`, -1},
		{"nested-running", `{"target":"foreach_items",` + nestedRun + `}`, -1},
		{"nested-parent", `{"target":"foreach_items",` + nestedRun + `,"query":"parent=0.shards"}`, -1},
		{"nested-item", `{"target":"foreach_item",` + nestedRun + `,"item":"0.shards.1"}`, -1},
		{"run-with-foreach-step", `{"target":"run","name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be"}`, 1},
	}
}

func prefixed(prefix string, cases []goldenCase) []goldenCase {
	for i := range cases {
		cases[i].name = prefix + cases[i].name
	}
	return cases
}

// TestForeachTargetsNewerDagu pins the foreach targets on a Dagu with
// per-item records (the /foreach routes).
func TestForeachTargetsNewerDagu(t *testing.T) {
	t.Parallel()
	runGoldenCases(t, fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, prefixed("foreach-routes-", foreachCases(true)))
}

// TestForeachTargetsOlderDagu pins the same reads on the recorded, older
// Dagu: items from the step's stdout summary, honest resource_unavailable
// for what that summary cannot give.
func TestForeachTargetsOlderDagu(t *testing.T) {
	t.Parallel()
	runGoldenCases(t, fakedagu.Options{Foreach: fakedagu.ForeachAggregate}, prefixed("foreach-aggregate-", foreachCases(false)))
}
