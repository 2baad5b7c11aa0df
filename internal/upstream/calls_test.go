// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"slices"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// callPlanCase is one read and the exact REST calls it must make.
type callPlanCase struct {
	name    string
	foreach fakedagu.ForeachMode
	role    string
	// undetected skips the capability detection before the read.
	undetected bool
	read       func(ctx context.Context, a *Adapter) error
	want       []string
}

func runOf(name, id string) model.RunAddress { return model.RunAddress{Name: name, DAGRunID: id} }

func stepOf(addr model.RunAddress, name string) model.StepAddress {
	return model.StepAddress{RunAddress: addr, StepName: name}
}

func ignore[T any](_ T, err error) error { return err }

func TestAdapterCallPlans(t *testing.T) {
	t.Parallel()
	from := fromDateOf(fakeNow)
	failing := "/dag-runs/failing_job/" + failingRun
	parent := "/dag-runs/parent_job/" + parentRun
	child := parent + "/sub-dag-runs/" + childRun
	foreach := "/dag-runs/foreach_job/" + foreachRun
	nested := "/dag-runs/nested_foreach_job/" + nestedRun
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	subLatest := model.RunAddress{Name: "parent_job", DAGRunID: "latest", SubRunID: childRun}
	body := stepOf(runOf("foreach_job", foreachRun), "each")
	body.Item, body.BodyStepName = "1", "work"

	tests := []callPlanCase{
		{name: "dags", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListDAGs(ctx, model.DAGListQuery{Page: 2, PerPage: 3, Labels: []string{"a", "b"}}))
		}, want: []string{"/dags?labels=a,b&page=2&perPage=3"}},
		{name: "dag", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetDAG(ctx, "mcp_read_contract"))
		}, want: []string{"/dags/mcp_read_contract"}},
		{name: "dag spec", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetDAGSpec(ctx, "mcp_read_contract"))
		}, want: []string{"/dags/mcp_read_contract/spec"}},
		{name: "dag names", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.DAGNames(ctx))
		}, want: []string{"/dags?page=1&perPage=200"}},
		{name: "dag search all workspaces", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchDAGs(ctx, model.DAGSearchQuery{Search: "echo", Workspace: "all", Limit: 2}))
		}, want: []string{"/search/dags?limit=2&q=echo"}},
		{name: "wiki tree", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "all"}))
		}, want: []string{"/wiki"}},
		{name: "wiki flat in a workspace", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListWiki(ctx, model.WikiListQuery{Workspace: "ops", Flat: true}))
		}, want: []string{"/wiki?flat=true&workspace=ops"}},
		{name: "wiki page", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetWikiPage(ctx, "ops", "oncall/handbook"))
		}, want: []string{"/wiki/page?path=oncall/handbook&workspace=ops"}},
		{name: "wiki search", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "failing", Workspace: "all"}))
		}, want: []string{"/search/wiki?q=failing"}},
		{name: "runs with the implicit window", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListRuns(ctx, model.RunListQuery{Status: []int{2, 3}, Limit: 5}))
		}, want: []string{"/dag-runs?fromDate=" + from + "&limit=5&status=2&status=3"}},
		{name: "runs with explicit dates", read: func(ctx context.Context, a *Adapter) error {
			zero := int64(0)
			return ignore(a.ListRuns(ctx, model.RunListQuery{FromDate: &zero, Name: "job"}))
		}, want: []string{"/dag-runs?fromDate=0&name=job"}},
		{name: "latest run of a DAG", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListRuns(ctx, model.RunListQuery{Name: "failing_job", DAGRunID: "latest"}))
		}, want: []string{"/dag-runs/failing_job/latest"}},
		{name: "run", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
		}, want: []string{failing}},
		{name: "run latest", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", "latest")))
		}, want: []string{"/dag-runs/failing_job/latest"}},
		{name: "run with the event log allowed", role: "manager", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
		}, want: []string{failing, "/event-logs?dagName=failing_job&dagRunId=" + failingRun + "&kind=dag_run&limit=1"}},
		{name: "sub-run", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, sub))
		}, want: []string{child}},
		{name: "sub-run under latest", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, subLatest))
		}, want: []string{"/dag-runs/parent_job/latest", child}},
		{name: "run logs probe every recorded stream", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{}))
		}, want: []string{
			failing, failing + "/log?tail=200",
			failing + "/steps/prepare/log?head=1&stream=stdout", failing + "/steps/prepare/log?head=1&stream=stderr",
			failing + "/steps/explode/log?head=1&stream=stdout", failing + "/steps/explode/log?head=1&stream=stderr",
		}},
		{name: "run logs of latest skip steps without paths", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, runOf("nested_foreach_job", "latest"), model.LogQuery{Tail: 7}))
		}, want: []string{
			"/dag-runs/nested_foreach_job/latest", nested + "/log?tail=7",
			nested + "/steps/setup/log?head=1&stream=stdout", nested + "/steps/setup/log?head=1&stream=stderr",
			nested + "/steps/regions/log?head=1&stream=stdout", nested + "/steps/regions/log?head=1&stream=stderr",
		}},
		{name: "step log both streams", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{}))
		}, want: []string{failing + "/steps/explode/log?stream=stdout&tail=200", failing + "/steps/explode/log?stream=stderr&tail=200"}},
		{name: "step log one stream", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{Stream: "stderr", Limit: 3}))
		}, want: []string{failing + "/steps/explode/log?limit=3&stream=stderr"}},
		{name: "step log of latest", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(runOf("failing_job", "latest"), "explode"), model.LogQuery{Head: 2}))
		}, want: []string{"/dag-runs/failing_job/latest", failing + "/steps/explode/log?head=2&stream=stdout", failing + "/steps/explode/log?head=2&stream=stderr"}},
		{name: "sub-run step log", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(sub, "child_start"), model.LogQuery{Stream: "stdout"}))
		}, want: []string{child + "/steps/child_start/log?stream=stdout&tail=200"}},
		{name: "foreach items from the route", foreach: fakedagu.ForeachRoutes, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{Status: "failed"}))
		}, want: []string{foreach + "/steps/each/foreach?status=failed"}},
		{name: "foreach items of latest from the route", foreach: fakedagu.ForeachRoutes, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", "latest"), "each"), model.ForeachQuery{}))
		}, want: []string{"/dag-runs/foreach_job/latest", foreach + "/steps/each/foreach"}},
		{name: "foreach item from the route", foreach: fakedagu.ForeachRoutes, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetForeachItem(ctx, body))
		}, want: []string{foreach + "/steps/each/foreach/1"}},
		{name: "body step log", foreach: fakedagu.ForeachRoutes, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, body, model.LogQuery{}))
		}, want: []string{
			foreach + "/steps/each/foreach/1/steps/work/log?stream=stdout&tail=200",
			foreach + "/steps/each/foreach/1/steps/work/log?stream=stderr&tail=200",
		}},
		{name: "foreach items from the summary", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
		}, want: []string{foreach, foreach + "/steps/each/log/download?stream=stdout"}},
		{name: "foreach items of latest from the summary reuse the details", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", "latest"), "each"), model.ForeachQuery{}))
		}, want: []string{"/dag-runs/foreach_job/latest", foreach + "/steps/each/log/download?stream=stdout"}},
		{name: "foreach item from the summary", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetForeachItem(ctx, body))
		}, want: []string{foreach, foreach + "/steps/each/log/download?stream=stdout"}},
		{name: "undetected server: detection first, then the detected routes", undetected: true, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
		}, want: []string{
			"/api/v2/health", "/health", "/openapi.json", "/dag-runs?fromDate=4102444800&limit=1&status=0&status=1", "/auth/me",
			foreach, foreach + "/steps/each/log/download?stream=stdout",
		}},
		{name: "body step log without the routes", read: func(ctx context.Context, a *Adapter) error {
			if _, err := a.GetStepLog(ctx, body, model.LogQuery{}); errorOf(t, err).Kind != model.FailureUnsupported {
				return err
			}
			return nil
		}, want: []string{foreach}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: tt.foreach, Role: tt.role}, detect: !tt.undetected})
			var err error
			got := env.calls(func() { err = tt.read(context.Background(), env.adapter) })
			if err != nil {
				t.Fatalf("read failed: %v", err)
			}
			if want := canonicalCalls(tt.want); !slices.Equal(got, want) {
				t.Errorf("calls:\n got %q\nwant %q", got, want)
			}
		})
	}
}
