// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// namedRead is one read of the Upstream port returning its answer.
type namedRead struct {
	name string
	read func(ctx context.Context, a readtool.Upstream) (any, error)
}

func answer[T any](v T, err error) (any, error) { return v, err }

// everyRead lists reads of every cached or shared kind, with failures and
// running runs among them, in an order where earlier reads fill caches
// that later ones use.
func everyRead() []namedRead {
	failing, latest := runOf("failing_job", failingRun), runOf("failing_job", "latest")
	parent, running := runOf("parent_job", parentRun), runOf("nested_foreach_job", nestedRun)
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	subLatest := model.RunAddress{Name: "parent_job", DAGRunID: "latest", SubRunID: childRun}
	bigLog := runOf("big_log_job", "0356UUo2lMk0yUwBDR9c0n")
	body := stepOf(runOf("foreach_job", foreachRun), "each")
	body.Item, body.BodyStepName = "1", "work"
	return []namedRead{
		{"dags", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListDAGs(ctx, model.DAGListQuery{}))
		}},
		{"dags page 2", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListDAGs(ctx, model.DAGListQuery{Page: 2, PerPage: 3}))
		}},
		{"runs", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListRuns(ctx, model.RunListQuery{}))
		}},
		{"failed runs", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListRuns(ctx, model.RunListQuery{Status: []int{2}, Limit: 2}))
		}},
		{"latest run of a DAG", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListRuns(ctx, model.RunListQuery{Name: "failing_job", DAGRunID: "latest"}))
		}},
		{"dag", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetDAG(ctx, "failing_job"))
		}},
		{"missing dag", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetDAG(ctx, "no_such_dag"))
		}},
		{"run", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, failing)) }},
		{"run latest", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, latest)) }},
		{"missing run", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRun(ctx, runOf("failing_job", "nope")))
		}},
		{"sub-run before its root", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, sub)) }},
		{"parent run", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, parent)) }},
		{"sub-run", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, sub)) }},
		{"sub-run under latest", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, subLatest)) }},
		{"missing sub-run", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRun(ctx, model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: "nope"}))
		}},
		{"running run", func(ctx context.Context, a readtool.Upstream) (any, error) { return answer(a.GetRun(ctx, running)) }},
		{"run logs", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRunLogs(ctx, failing, model.LogQuery{}))
		}},
		{"run logs head", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRunLogs(ctx, failing, model.LogQuery{Head: 2}))
		}},
		{"run logs latest", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRunLogs(ctx, latest, model.LogQuery{Tail: 3}))
		}},
		{"run logs of a running run", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRunLogs(ctx, running, model.LogQuery{}))
		}},
		{"run logs of a missing run", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetRunLogs(ctx, runOf("failing_job", "nope"), model.LogQuery{}))
		}},
		{"step log", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(failing, "explode"), model.LogQuery{}))
		}},
		{"step log stderr window", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(failing, "explode"), model.LogQuery{Stream: "stderr", Offset: 1, Limit: 2}))
		}},
		{"step log with a missing stream", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(failing, "prepare"), model.LogQuery{}))
		}},
		{"step log of a missing step", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(failing, "no_such_step"), model.LogQuery{}))
		}},
		{"step log latest", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(latest, "prepare"), model.LogQuery{Head: 1}))
		}},
		{"big step log, default window", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(bigLog, "spew"), model.LogQuery{}))
		}},
		{"big step log, tail", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(bigLog, "spew"), model.LogQuery{Stream: "stdout", Tail: 3}))
		}},
		{"sub-run step log", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(sub, "child_start"), model.LogQuery{}))
		}},
		{"running step log", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, stepOf(running, "setup"), model.LogQuery{}))
		}},
		{"body step log", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetStepLog(ctx, body, model.LogQuery{}))
		}},
		{"foreach items", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
		}},
		{"foreach item", func(ctx context.Context, a readtool.Upstream) (any, error) {
			return answer(a.GetForeachItem(ctx, model.StepAddress{RunAddress: runOf("foreach_job", foreachRun), StepName: "each", Item: "0"}))
		}},
	}
}

// missingPrepareStderr makes the prepare step's stderr file missing,
// so a read with one missing stream is among the reads.
func missingPrepareStderr(w http.ResponseWriter, r *http.Request) bool {
	if strings.HasSuffix(r.URL.Path, "/steps/prepare/log") && r.URL.Query().Get("stream") == "stderr" {
		return answerJSON(w, http.StatusNotFound, notFoundJSON)
	}
	return false
}

// TestCachedAnswersEqualUncached runs every read, twice over, through an
// adapter with every cache on and through one with every cache off, and
// compares the answers (and failures) byte for byte.
func TestCachedAnswersEqualUncached(t *testing.T) {
	t.Parallel()
	fakes := map[string]fakedagu.Options{
		"recorded":                 {},
		"foreach routes, attempts": {Foreach: fakedagu.ForeachRoutes, Role: "manager"},
	}
	for name, fake := range fakes {
		t.Run(name, func(t *testing.T) {
			cached := cachedEnv(t, fake)
			plain := newAdapterEnv(t, envOptions{fake: fake, detect: true})
			for _, env := range []*adapterEnv{cached, plain} {
				env.setIntercept(missingPrepareStderr)
			}
			for pass := 1; pass <= 2; pass++ {
				for _, r := range everyRead() {
					got, want := render(t, r, cached.adapter), render(t, r, plain.adapter)
					if !bytes.Equal(got, want) {
						t.Errorf("pass %d, %s:\ncached   %s\nuncached %s", pass, r.name, got, want)
					}
				}
			}
			if s := cached.adapter.runs.stats(); s.Hits == 0 {
				t.Errorf("the run cache answered nothing: %+v", s)
			}
		})
	}
}

// render makes the read and writes its answer, or the agent-visible parts
// of its failure, as JSON.
func render(t *testing.T, r namedRead, a readtool.Upstream) []byte {
	t.Helper()
	v, err := r.read(context.Background(), a)
	var doc any = v
	if err != nil {
		e := errorOf(t, err)
		doc = map[string]any{"kind": e.Kind, "status": e.Status, "field": e.Field, "reason": told(e), "surfaceDenied": e.SurfaceDenied}
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
