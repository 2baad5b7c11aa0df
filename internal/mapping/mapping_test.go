// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"encoding/json"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

func ptr[T any](v T) *T { return &v }

func TestWikiPageURI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		selected string
		reported *string
		id       string
		want     string
	}{
		{"all, reported workspace prefix stripped", "all", ptr("ops"), "ops/oncall/handbook", "dagu://wiki/ops/oncall%2Fhandbook"},
		{"all, nothing reported means default", "all", nil, "runbooks/deploy", "dagu://wiki/default/runbooks%2Fdeploy"},
		{"empty selector is all", "", ptr("ops"), "ops/x", "dagu://wiki/ops/x"},
		{"all, empty reported means default", "all", ptr(""), "ops/x", "dagu://wiki/default/ops%2Fx"},
		{"all, id without the prefix kept", "all", ptr("ops"), "opsx/page", "dagu://wiki/ops/opsx%2Fpage"},
		{"all, id equal to the workspace kept", "all", ptr("ops"), "ops", "dagu://wiki/ops/ops"},
		{"all, bare prefix kept", "all", ptr("ops"), "ops/", "dagu://wiki/ops/ops%2F"},
		{"concrete workspace, id as is", "ops", ptr("ops"), "oncall/handbook", "dagu://wiki/ops/oncall%2Fhandbook"},
		{"concrete workspace ignores reported", "default", ptr("ops"), "ops/a", "dagu://wiki/default/ops%2Fa"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wikiPageURI(tc.selected, tc.reported, tc.id); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStepLogStream(t *testing.T) {
	t.Parallel()
	out := &gen.Log{Content: "o", LineCount: ptr(1), TotalLines: ptr(10), HasMore: ptr(true)}
	errLog := &gen.Log{Content: "e", LineCount: ptr(2), TotalLines: ptr(2)}
	tests := []struct {
		name           string
		stdout, stderr *gen.Log
		want           model.StepLog
	}{
		{"both: stdout counts", out, errLog, model.StepLog{StdoutContent: "o", StderrContent: "e", LineCount: 1, TotalLines: 10, HasMore: true, Stream: "stdout"}},
		{"stdout only", out, nil, model.StepLog{StdoutContent: "o", LineCount: 1, TotalLines: 10, HasMore: true, Stream: "stdout"}},
		{"stderr only", nil, errLog, model.StepLog{StderrContent: "e", LineCount: 2, TotalLines: 2, Stream: "stderr"}},
		{"empty file", &gen.Log{}, nil, model.StepLog{Stream: "stdout"}},
		{"nothing read", nil, nil, model.StepLog{Stream: "stdout"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := StepLog(tc.stdout, tc.stderr); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRunDetailRefs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		details    gen.DAGRunDetails
		addr       RunAddressForURIs
		wantURI    string
		wantLogs   string
		wantRoot   *model.RunRef
		wantParent *model.RunRef
	}{
		{
			name:     "root run",
			details:  gen.DAGRunDetails{Name: "a", DagRunId: "1", RootDAGRunName: "a", RootDAGRunId: "1"},
			addr:     RunAddressForURIs{RootName: "a", RootID: "1"},
			wantURI:  "dagu://runs/a/1",
			wantLogs: "dagu://runs/a/1/logs",
		},
		{
			name: "child of the root",
			details: gen.DAGRunDetails{Name: "c", DagRunId: "2", RootDAGRunName: "a", RootDAGRunId: "1",
				ParentDAGRunName: ptr("a"), ParentDAGRunId: ptr("1")},
			addr:       RunAddressForURIs{RootName: "a", RootID: "1", SubRunID: "2"},
			wantURI:    "dagu://runs/a/1/sub/2",
			wantRoot:   &model.RunRef{Name: "a", DAGRunID: "1", URI: "dagu://runs/a/1"},
			wantParent: &model.RunRef{Name: "a", DAGRunID: "1", URI: "dagu://runs/a/1"},
		},
		{
			name: "grandchild",
			details: gen.DAGRunDetails{Name: "g", DagRunId: "3", RootDAGRunName: "a", RootDAGRunId: "1",
				ParentDAGRunName: ptr("c"), ParentDAGRunId: ptr("2")},
			addr:       RunAddressForURIs{RootName: "a", RootID: "1", SubRunID: "3"},
			wantURI:    "dagu://runs/a/1/sub/3",
			wantRoot:   &model.RunRef{Name: "a", DAGRunID: "1", URI: "dagu://runs/a/1"},
			wantParent: &model.RunRef{Name: "c", DAGRunID: "2", URI: "dagu://runs/a/1/sub/2"},
		},
		{
			name:     "sub-run without reported root or parent",
			details:  gen.DAGRunDetails{Name: "c", DagRunId: "2"},
			addr:     RunAddressForURIs{RootName: "a b", RootID: "1", SubRunID: "2"},
			wantURI:  "dagu://runs/a%20b/1/sub/2",
			wantRoot: &model.RunRef{Name: "a b", DAGRunID: "1", URI: "dagu://runs/a%20b/1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RunDetail(&tc.details, tc.addr)
			if got.URI != tc.wantURI || got.LogsURI != tc.wantLogs {
				t.Errorf("uri %q logsUri %q", got.URI, got.LogsURI)
			}
			if !equalJSON(t, got.RootRun, tc.wantRoot) || !equalJSON(t, got.ParentRun, tc.wantParent) {
				t.Errorf("rootRun %+v parentRun %+v", got.RootRun, got.ParentRun)
			}
		})
	}
}

func TestStepOrder(t *testing.T) {
	t.Parallel()
	node := func(name, started string) gen.Node {
		return gen.Node{Step: gen.Step{Name: name}, StartedAt: started}
	}
	tests := []struct {
		name  string
		nodes []gen.Node
		want  []string
	}{
		{"declaration order kept when sorted", []gen.Node{
			node("a", "2026-01-01T00:00:01Z"), node("b", "2026-01-01T00:00:02Z"), node("c", "-"),
		}, []string{"a", "b", "c"}},
		{"later declared but earlier started", []gen.Node{
			node("late", "2026-01-01T00:00:05Z"), node("early", "2026-01-01T00:00:01Z"),
		}, []string{"early", "late"}},
		{"unstarted last, ties stable", []gen.Node{
			node("u1", ""), node("t1", "2026-01-01T00:00:01Z"), node("u2", "-"), node("t2", "2026-01-01T00:00:01Z"),
		}, []string{"t1", "t2", "u1", "u2"}},
		{"offsets and fractions compared as instants", []gen.Node{
			node("whole", "2026-01-01T00:00:01Z"), node("fraction", "2026-01-01T00:00:00.5Z"), node("offset", "2026-01-01T01:00:00.7+01:00"),
		}, []string{"fraction", "offset", "whole"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps := runSteps(tc.nodes, RunAddressForURIs{RootName: "r", RootID: "1"})
			logs := RunLogs(&gen.DAGRunDetails{Nodes: tc.nodes}, nil, nil, RunAddressForURIs{RootName: "r", RootID: "1"})
			for i, want := range tc.want {
				if steps[i].Name != want || logs.StepLogs[i].StepName != want {
					t.Fatalf("position %d: step %q, step log %q, want %q", i, steps[i].Name, logs.StepLogs[i].StepName, want)
				}
			}
		})
	}
}

func TestLatestRunOnlyWhenTheDAGRan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		runID string
		want  bool
	}{
		{"ran", "r1", true},
		{"never ran", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list := &gen.DAGListResponse{Dags: []gen.DAGFile{{FileName: "f", LatestDAGRun: gen.DAGRunSummary{DagRunId: tc.runID, Name: "n"}}}}
			detail := &gen.DAGDetailsResponse{LatestDAGRun: gen.DAGRunDetails{DagRunId: tc.runID, Name: "n"}}
			listed := DAGs(list).Items[0].LatestRun
			detailed := DAGDetail("f", detail).LatestRun
			if (listed != nil) != tc.want || (detailed != nil) != tc.want {
				t.Fatalf("listed %+v detailed %+v", listed, detailed)
			}
			if tc.want && (listed.URI != "dagu://runs/n/r1" || listed.StatusLabel != "not_started") {
				t.Errorf("listed %+v", listed)
			}
		})
	}
}

// TestNilAnswers checks that every mapping accepts a missing answer and
// still gives the arrays the contract requires.
func TestNilAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mapped any
		want   string
	}{
		{"dags", DAGs(nil), `{"items":[],"pagination":{"totalRecords":0,"currentPage":0,"totalPages":0,"nextPage":0,"prevPage":0}}`},
		{"dag names", DAGNames(nil), `[]`},
		{"dag", DAGDetail("x", nil), `{"name":"x","specUri":"dagu://dags/x/spec","suspended":false}`},
		{"dag spec", DAGSpec("x", nil), `{"name":"x","mimeType":"application/yaml","spec":"","errors":[]}`},
		{"dag search", DAGSearch(nil), `{"results":[],"hasMore":false}`},
		{"wiki search", WikiSearch(nil, "all"), `{"results":[],"hasMore":false}`},
		{"runs", Runs(nil), `{"items":[]}`},
		{"run logs", RunLogs(nil, nil, nil, contractRun), `{"schedulerLog":{"content":"","lineCount":0,"totalLines":0,"hasMore":false},"stepLogs":[]}`},
		{"foreach items", ForeachItems(nil, foreachRun, "each", model.ForeachQuery{}),
			`{"total":0,"counts":{"notStarted":0,"running":0,"succeeded":0,"failed":0,"aborted":0},"items":[],"page":1,"perPage":50,"hasMore":false,"source":"foreach-route"}`},
		{"streams", StreamsFromPaths(nil), `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.mapped)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestWaitingSteps(t *testing.T) {
	t.Parallel()
	task := &gen.HumanTaskConfig{Prompt: "why?", Form: map[string]any{"type": "object"}}
	gate := &gen.ApprovalConfig{Prompt: ptr("ok?"), Input: []string{"a"}}
	tests := []struct {
		name          string
		status        int
		step          gen.Step
		wantTask      bool
		wantApproval  bool
		wantFormBytes string
	}{
		{"waiting on a human task", 7, gen.Step{HumanTask: task}, true, false, `{"type":"object"}`},
		{"human task wins over approval", 7, gen.Step{HumanTask: task, Approval: gate}, true, false, `{"type":"object"}`},
		{"waiting on approval", 7, gen.Step{Approval: gate}, false, true, ""},
		{"human task no longer open", 4, gen.Step{HumanTask: task}, false, false, ""},
		{"approval decided", 8, gen.Step{Approval: gate}, false, false, ""},
		{"waiting on nothing declared", 7, gen.Step{}, false, false, ""},
		{"task without form", 7, gen.Step{HumanTask: &gen.HumanTaskConfig{Prompt: "p"}}, true, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.step.Name = "s"
			got := runStep(&gen.Node{Status: tc.status, Step: tc.step}, contractRun)
			if (got.HumanTask != nil) != tc.wantTask || (got.Approval != nil) != tc.wantApproval {
				t.Fatalf("humanTask %+v approval %+v", got.HumanTask, got.Approval)
			}
			if got.HumanTask != nil && string(got.HumanTask.Form) != tc.wantFormBytes {
				t.Errorf("form %s, want %s", got.HumanTask.Form, tc.wantFormBytes)
			}
		})
	}
}
