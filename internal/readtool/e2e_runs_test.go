// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

const (
	failingRun = `"name":"failing_job","dagRunId":"0356UUn8VwcWFuh5L8qwbp"`
	bigLogRun  = `"name":"big_log_job","dagRunId":"0356UUo2lMk0yUwBDR9c0n"`
	parentRun  = `"name":"parent_job","dagRunId":"0356UUnJXB5Ffd1qyncWee"`
	subRunID   = `91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg`
)

// TestRunTargets pins runs, run, run_logs and step_log for root runs and
// sub-runs in both modes, with the REST call budget of each read.
func TestRunTargets(t *testing.T) {
	t.Parallel()
	runGoldenCases(t, fakedagu.Options{RecordedOnly: true}, []goldenCase{
		{"runs-default-window", `{"target":"runs"}`, 1},
		{"runs-failed", `{"target":"runs","query":"status=2&fromDate=0"}`, 1},
		{"runs-two-statuses-uri", `{"uri":"dagu://runs?status=2&status=7&fromDate=0"}`, 1},
		{"runs-page", `{"target":"runs","query":"limit=2&fromDate=0"}`, 1},
		{"runs-latest-of-dag", `{"target":"runs","query":"name=mcp_read_contract&dagRunId=latest"}`, 1},
		{"runs-bad-status", `{"target":"runs","query":"status=1,2"}`, 0},
		{"run-failed", `{"target":"run",` + failingRun + `}`, 1},
		{"run-latest", `{"target":"run","name":"mcp_read_contract","dagRunId":"latest"}`, 1},
		{"run-latest-uri", `{"uri":"dagu://runs/mcp_read_contract/latest"}`, 1},
		{"run-human-task", `{"target":"run","name":"human_task_job","dagRunId":"0356UUnhJiL9K5KSXR0NTa"}`, 1},
		{"run-approval", `{"target":"run","name":"approval_job","dagRunId":"0356UUns2Uzg25nn0kcIIt"}`, 1},
		{"run-parent", `{"target":"run",` + parentRun + `}`, 1},
		{"run-sub", `{"target":"run",` + parentRun + `,"subRunId":"` + subRunID + `"}`, 1},
		{"run-sub-uri", `{"uri":"dagu://runs/parent_job/0356UUnJXB5Ffd1qyncWee/sub/` + subRunID + `"}`, 1},
		{"run-foreach", `{"target":"run","name":"foreach_job","dagRunId":"0356UUnVEGj0qj7EkXG3Be"}`, 1},
		{"run-missing", `{"target":"run","name":"mcp_read_contract","dagRunId":"no_such_run"}`, 2},
		{"run-latest-none", `{"target":"run","name":"no_such_dag","dagRunId":"latest"}`, 2},
		{"run-sub-missing", `{"target":"run",` + parentRun + `,"subRunId":"nope"}`, 2},
		{"run-logs", `{"target":"run_logs",` + failingRun + `}`, -1},
		{"run-logs-tail", `{"target":"run_logs",` + failingRun + `,"query":"tail=2"}`, -1},
		{"run-logs-uri", `{"uri":"dagu://runs/failing_job/0356UUn8VwcWFuh5L8qwbp/logs?tail=5"}`, -1},
		{"step-log", `{"target":"step_log",` + failingRun + `,"stepName":"explode"}`, 2},
		{"step-log-stderr", `{"target":"step_log",` + failingRun + `,"stepName":"explode","query":"stream=stderr"}`, 1},
		{"step-log-latest", `{"target":"step_log","name":"failing_job","dagRunId":"latest","stepName":"explode","query":"stream=stderr"}`, 2},
		{"step-log-tail", `{"target":"step_log",` + bigLogRun + `,"stepName":"spew","query":"stream=stdout&tail=3"}`, 1},
		{"step-log-head", `{"target":"step_log",` + bigLogRun + `,"stepName":"spew","query":"stream=stdout&head=3"}`, 1},
		{"step-log-offset", `{"target":"step_log",` + bigLogRun + `,"stepName":"spew","query":"stream=stdout&offset=100&limit=3"}`, 1},
		{"step-log-limit", `{"target":"step_log",` + bigLogRun + `,"stepName":"spew","query":"stream=stdout&limit=3"}`, 1},
		{"step-log-sub", `{"target":"step_log",` + parentRun + `,"subRunId":"` + subRunID + `","stepName":"child_start","query":"stream=stdout"}`, 1},
		{"step-log-sub-uri", `{"uri":"dagu://runs/parent_job/0356UUnJXB5Ffd1qyncWee/sub/` + subRunID + `/steps/child_start/logs?stream=stdout"}`, 1},
		{"step-log-missing-step", `{"target":"step_log",` + failingRun + `,"stepName":"no_such_step","query":"stream=stdout"}`, 3},
		{"step-log-missing-run", `{"target":"step_log","name":"failing_job","dagRunId":"nope","stepName":"explode","query":"stream=stdout"}`, 2},
		{"step-log-window-conflict", `{"target":"step_log",` + failingRun + `,"stepName":"explode","query":"tail=5&head=5"}`, 0},
	})
}

// TestBigLogDefaultWindowStaysSmall: without a window a step_log read of
// the 20,000-line log returns a bounded tail and says more exists.
func TestBigLogDefaultWindowStaysSmall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{RecordedOnly: true})
	res := h.call(t, `{"target":"step_log",`+bigLogRun+`,"stepName":"spew"}`)
	data := structuredOf(t, res)["data"].(map[string]any)
	out := data["stdoutContent"].(string)
	if n := strings.Count(out, "\n") + 1; n != 200 || !strings.HasSuffix(out, "line 20000 of the big log") {
		t.Fatalf("default window returned %d lines ending %q", n, out[len(out)-30:])
	}
	if data["hasMore"] != true || data["stderrContent"] != "warn: last" {
		t.Fatalf("hasMore=%v stderr=%q", data["hasMore"], data["stderrContent"])
	}
	for _, call := range h.restCalls() {
		if !strings.Contains(call, "stream=") {
			t.Fatalf("step log call without stream: %s", call)
		}
	}
}
