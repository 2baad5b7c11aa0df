// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"bytes"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Addresses of the recorded runs, as the caller would pass them.
var (
	contractRun = RunAddressForURIs{RootName: "mcp_read_contract", RootID: "0356UUmdcNPeDAsLFkyccZ"}
	failingRun  = RunAddressForURIs{RootName: "failing_job", RootID: "0356UUn8VwcWFuh5L8qwbp"}
	parentRun   = RunAddressForURIs{RootName: "parent_job", RootID: "0356UUnJXB5Ffd1qyncWee"}
	childRun    = RunAddressForURIs{RootName: "parent_job", RootID: "0356UUnJXB5Ffd1qyncWee",
		SubRunID: "91BtJYkQW1SsskLaa43ZUyKwazXZNeYsWuDL4EC3BKCg"}
	foreachRun   = RunAddressForURIs{RootName: "foreach_job", RootID: "0356UUnVEGj0qj7EkXG3Be"}
	humanTaskRun = RunAddressForURIs{RootName: "human_task_job", RootID: "0356UUnhJiL9K5KSXR0NTa"}
	approvalRun  = RunAddressForURIs{RootName: "approval_job", RootID: "0356UUns2Uzg25nn0kcIIt"}
	bigLogRun    = RunAddressForURIs{RootName: "big_log_job", RootID: "0356UUo2lMk0yUwBDR9c0n"}
	latestRun    = RunAddressForURIs{RootName: "mcp_read_contract", RootID: "0356UUq104XcRQrYc2HylA"}
	nestedRun    = RunAddressForURIs{RootName: "root_job", RootID: "R1", SubRunID: "GC1"}
	syntheticRun = RunAddressForURIs{RootName: "foreach_job", RootID: "R1"}
)

type goldenCase struct {
	golden string
	mapped func(t *testing.T) any
}

func runDetailCase(golden, file string, addr RunAddressForURIs) goldenCase {
	return goldenCase{golden, func(t *testing.T) any {
		return RunDetail(&fixture[gen.DAGRunDetailsResponse](t, file).DagRunDetails, addr)
	}}
}

func stepLogCase(golden, stdoutFile, stderrFile string) goldenCase {
	return goldenCase{golden, func(t *testing.T) any {
		var stdout, stderr *gen.Log
		if stdoutFile != "" {
			stdout = fixture[gen.Log](t, stdoutFile)
		}
		if stderrFile != "" {
			stderr = fixture[gen.Log](t, stderrFile)
		}
		return StepLog(stdout, stderr)
	}}
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{"dags-default", func(t *testing.T) any { return DAGs(fixture[gen.DAGListResponse](t, "003-dags.json")) }},
		{"dags-paged", func(t *testing.T) any { return DAGs(fixture[gen.DAGListResponse](t, "004-dags.json")) }},
		{"dags-labels", func(t *testing.T) any { return DAGs(fixture[gen.DAGListResponse](t, "007-dags.json")) }},
		{"dags-next-run", func(t *testing.T) any { return DAGs(fixture[gen.DAGListResponse](t, "008-dags.json")) }},
		{"dags-variety", func(t *testing.T) any { return DAGs(fixture[gen.DAGListResponse](t, "synthetic-dags-variety.json")) }},
		{"dag-names", func(t *testing.T) any { return DAGNames(fixture[gen.DAGListResponse](t, "003-dags.json")) }},
		{"dag-ran", func(t *testing.T) any {
			return DAGDetail("mcp_read_contract", fixture[gen.DAGDetailsResponse](t, "009-dags-mcp-read-contract.json"))
		}},
		{"dag-never-ran", func(t *testing.T) any {
			return DAGDetail("child_job", fixture[gen.DAGDetailsResponse](t, "010-dags-child-job.json"))
		}},
		{"dag-suspended", func(t *testing.T) any {
			return DAGDetail("suspended_job", fixture[gen.DAGDetailsResponse](t, "011-dags-suspended-job.json"))
		}},
		{"dag-dotted", func(t *testing.T) any {
			return DAGDetail("mcp.read-contract", fixture[gen.DAGDetailsResponse](t, "012-dags-mcp-read-contract.json"))
		}},
		{"dag-spec", func(t *testing.T) any {
			return DAGSpec("mcp_read_contract", fixture[gen.DAGSpecResponse](t, "015-dags-mcp-read-contract-spec.json"))
		}},
		{"dag-spec-labels", func(t *testing.T) any {
			return DAGSpec("failing_job", fixture[gen.DAGSpecResponse](t, "016-dags-failing-job-spec.json"))
		}},
		{"dag-search", func(t *testing.T) any {
			return DAGSearch(fixture[gen.DAGSearchFeedResponse](t, "018-search-dags.json"))
		}},
		{"dag-search-limited", func(t *testing.T) any {
			return DAGSearch(fixture[gen.DAGSearchFeedResponse](t, "019-search-dags.json"))
		}},
		{"wiki-tree-all", func(t *testing.T) any {
			return WikiCollection(fixture[gen.WikiPageListResponse](t, "021-wiki.json"), "all", false)
		}},
		{"wiki-flat-all", func(t *testing.T) any {
			return WikiCollection(fixture[gen.WikiPageListResponse](t, "022-wiki.json"), "", true)
		}},
		{"wiki-flat-ops", func(t *testing.T) any {
			return WikiCollection(fixture[gen.WikiPageListResponse](t, "023-wiki.json"), "ops", true)
		}},
		{"wiki-flat-prefix", func(t *testing.T) any {
			return WikiCollection(fixture[gen.WikiPageListResponse](t, "024-wiki.json"), "all", true)
		}},
		{"wiki-page-default", func(t *testing.T) any {
			return WikiPage(fixture[gen.WikiPageResponse](t, "025-wiki-page.json"), "default")
		}},
		{"wiki-page-ops", func(t *testing.T) any {
			return WikiPage(fixture[gen.WikiPageResponse](t, "026-wiki-page.json"), "ops")
		}},
		{"wiki-search", func(t *testing.T) any {
			return WikiSearch(fixture[gen.WikiPageSearchFeedResponse](t, "028-search-wiki.json"), "all")
		}},
		{"wiki-search-limited", func(t *testing.T) any {
			return WikiSearch(fixture[gen.WikiPageSearchFeedResponse](t, "029-search-wiki.json"), "all")
		}},
		{"runs-default", func(t *testing.T) any { return Runs(fixture[gen.DAGRunsPageResponse](t, "030-dag-runs.json")) }},
		{"runs-failed", func(t *testing.T) any { return Runs(fixture[gen.DAGRunsPageResponse](t, "033-dag-runs.json")) }},
		{"runs-limited", func(t *testing.T) any { return Runs(fixture[gen.DAGRunsPageResponse](t, "034-dag-runs.json")) }},
		runDetailCase("run-latest", "035-dag-runs-mcp-read-contract-latest.json", latestRun),
		runDetailCase("run-contract", "036-dag-runs-mcp-read-contract-0356UUmdcNPeDAsLFkyccZ.json", contractRun),
		runDetailCase("run-failing", "037-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp.json", failingRun),
		runDetailCase("run-parent", "038-dag-runs-parent-job-0356UUnJXB5Ffd1qyncWee.json", parentRun),
		runDetailCase("run-foreach", "040-dag-runs-foreach-job-0356UUnVEGj0qj7EkXG3Be.json", foreachRun),
		runDetailCase("run-human-task", "041-dag-runs-human-task-job-0356UUnhJiL9K5KSXR0NTa.json", humanTaskRun),
		runDetailCase("run-approval", "042-dag-runs-approval-job-0356UUns2Uzg25nn0kcIIt.json", approvalRun),
		runDetailCase("run-big-log", "043-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n.json", bigLogRun),
		runDetailCase("run-sub", "062-dag-runs-parent-job-0356UUnJXB5Ffd1qyncWee-sub-dag-runs-91B.json", childRun),
		runDetailCase("run-sub-nested", "synthetic-sub-run-nested.json", nestedRun),
		{"log-scheduler", func(t *testing.T) any {
			return LogWindow(fixture[gen.Log](t, "046-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp-log.json"))
		}},
		{"run-logs", func(t *testing.T) any {
			d := &fixture[gen.DAGRunDetailsResponse](t, "037-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp.json").DagRunDetails
			l := fixture[gen.Log](t, "047-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp-log.json")
			return RunLogs(d, l, StreamsFromPaths(d), failingRun)
		}},
		{"run-logs-nested", func(t *testing.T) any {
			d := &fixture[gen.DAGRunDetailsResponse](t, "synthetic-sub-run-nested.json").DagRunDetails
			return RunLogs(d, nil, StreamsFromPaths(d), nestedRun)
		}},
		stepLogCase("step-log-both", "048-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp-steps-explode-l.json",
			"049-dag-runs-failing-job-0356UUn8VwcWFuh5L8qwbp-steps-explode-l.json"),
		stepLogCase("step-log-stderr", "", "056-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json"),
		stepLogCase("step-log-tail", "051-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json", ""),
		stepLogCase("step-log-head", "052-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json", ""),
		stepLogCase("step-log-offset", "053-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json", ""),
		stepLogCase("step-log-limit", "054-dag-runs-big-log-job-0356UUo2lMk0yUwBDR9c0n-steps-spew-log.json", ""),
		stepLogCase("step-log-sub", "064-dag-runs-parent-job-0356UUnJXB5Ffd1qyncWee-sub-dag-runs-91B.json", ""),
		{"foreach-aggregate-items", func(t *testing.T) any {
			return AggregateItems(aggregateFixture(t), foreachRun, "each", model.ForeachQuery{})
		}},
		{"foreach-aggregate-item", func(t *testing.T) any {
			item, _ := AggregateItem(aggregateFixture(t), foreachRun, "each", "1")
			return item
		}},
		{"foreach-route-items", func(t *testing.T) any {
			list := fixture[gen.ForeachItemList](t, "synthetic-foreach-items.json")
			return ForeachItems(list, syntheticRun, "each", model.ForeachQuery{Status: "failed", PerPage: 2})
		}},
		{"foreach-route-item", func(t *testing.T) any {
			return ForeachItem(fixture[gen.ForeachItem](t, "synthetic-foreach-item.json"), syntheticRun, "each")
		}},
	}
}

// aggregateFixture parses the aggregate the recorded foreach step wrote.
func aggregateFixture(tb testing.TB) Aggregate {
	tb.Helper()
	l := fixture[gen.Log](tb, "057-dag-runs-foreach-job-0356UUnVEGj0qj7EkXG3Be-steps-each-log.json")
	agg, err := ParseForeachAggregate([]byte(l.Content))
	if err != nil {
		tb.Fatal(err)
	}
	return agg
}

// serverPathMarkers are the prefixes of every server filesystem path in the
// fixtures (scheduler logs, step stdout and stderr).
var serverPathMarkers = [][]byte{[]byte("/var/lib/dagu"), []byte("/srv/dagu")}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenCases() {
		t.Run(tc.golden, func(t *testing.T) {
			out := checkGolden(t, tc.golden, tc.mapped(t))
			for _, marker := range serverPathMarkers {
				if bytes.Contains(out, marker) {
					t.Errorf("a server path (%s…) reached the model:\n%s", marker, out)
				}
			}
		})
	}
}
