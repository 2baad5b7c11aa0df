// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

var foreachModes = []struct {
	name   string
	mode   fakedagu.ForeachMode
	source string
}{
	{"routes", fakedagu.ForeachRoutes, "foreach-route"},
	{"summary", fakedagu.ForeachAggregate, "aggregate"},
}

func TestForeachItemsInBothModes(t *testing.T) {
	t.Parallel()
	for _, m := range foreachModes {
		t.Run(m.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: m.mode}, detect: true})
			ctx := context.Background()
			list, err := env.adapter.ListForeachItems(ctx, stepOf(runOf("foreach_job", "latest"), "each"), model.ForeachQuery{PerPage: 2})
			if err != nil {
				t.Fatal(err)
			}
			wantCounts := model.ForeachCounts{Succeeded: 2, Failed: 1}
			if list.Source != m.source || list.Total != 3 || list.Counts != wantCounts || len(list.Items) != 2 || !list.HasMore {
				t.Fatalf("list %+v", list)
			}
			first := list.Items[0]
			if first.Item != "1" || first.Status != 2 || first.URI != model.ForeachItemURI("foreach_job", foreachRun, "", "each", "1") {
				t.Errorf("failed item not first, or not addressed by the resolved run: %+v", first)
			}
			item, err := env.adapter.GetForeachItem(ctx, model.StepAddress{RunAddress: runOf("foreach_job", foreachRun), StepName: "each", Item: "1"})
			if err != nil {
				t.Fatal(err)
			}
			if item.Source != m.source || item.Index != 1 || item.Status != 2 || item.Steps == nil || item.StepsAvailable != (m.mode == fakedagu.ForeachRoutes) {
				t.Errorf("item %+v", item)
			}
		})
	}
}

func TestForeachFailuresInBothModes(t *testing.T) {
	t.Parallel()
	nested := model.StepAddress{RunAddress: runOf("nested_foreach_job", nestedRun), StepName: "regions"}
	tests := []struct {
		name string
		addr model.StepAddress
		q    model.ForeachQuery
		// item reads one item (addr.Item) instead of the list.
		item bool
		// want per mode: kind, field and detail ("" when not checked).
		routes, summary failure
	}{
		{
			name: "missing run", addr: stepOf(runOf("foreach_job", "nope"), "each"),
			routes: failure{model.FailureHTTP, model.FieldDAGRunID, ""}, summary: failure{model.FailureHTTP, model.FieldDAGRunID, ""},
		},
		{
			name: "missing step", addr: stepOf(runOf("foreach_job", foreachRun), "nope"),
			routes: failure{model.FailureHTTP, model.FieldStepName, ""}, summary: failure{model.FailureNotFound, model.FieldStepName, ""},
		},
		{
			name: "not a foreach step", addr: stepOf(runOf("foreach_job", foreachRun), "after"),
			routes:  failure{model.FailureNotFound, model.FieldStepName, said(model.ReasonNotForeachStep, "after")},
			summary: failure{model.FailureNotFound, model.FieldStepName, said(model.ReasonNotForeachStep, "after")},
		},
		{
			name: "missing item", item: true, addr: model.StepAddress{RunAddress: runOf("foreach_job", foreachRun), StepName: "each", Item: "7"},
			routes: failure{model.FailureHTTP, model.FieldItem, ""}, summary: failure{model.FailureNotFound, model.FieldItem, ""},
		},
		{
			name: "nested item of a finished step", item: true, addr: model.StepAddress{RunAddress: runOf("foreach_job", foreachRun), StepName: "each", Item: "1.inner.0"},
			routes: failure{model.FailureHTTP, model.FieldItem, ""}, summary: failure{model.FailureUnsupported, "", said(model.ReasonNoNestedForeach)},
		},
		{
			name: "running step", addr: nested,
			summary: failure{model.FailureUnsupported, "", said(model.ReasonNoLiveForeach)},
		},
		{
			name: "nested items", addr: nested, q: model.ForeachQuery{Parent: "0.shards"},
			summary: failure{model.FailureUnsupported, "", said(model.ReasonNoNestedForeach)},
		},
		{
			name: "unknown parent", addr: stepOf(runOf("foreach_job", foreachRun), "each"), q: model.ForeachQuery{Parent: "0.nope"},
			routes: failure{model.FailureHTTP, model.ParamParent, ""}, summary: failure{model.FailureUnsupported, "", said(model.ReasonNoNestedForeach)},
		},
	}
	for _, m := range foreachModes {
		env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: m.mode}, detect: true})
		for _, tt := range tests {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				want := tt.summary
				if m.mode == fakedagu.ForeachRoutes {
					want = tt.routes
				}
				var err error
				if tt.item {
					_, err = env.adapter.GetForeachItem(context.Background(), tt.addr)
				} else {
					_, err = env.adapter.ListForeachItems(context.Background(), tt.addr, tt.q)
				}
				if want == (failure{}) {
					if err != nil {
						t.Fatalf("unexpected error %v", err)
					}
					return
				}
				want.check(t, err)
			})
		}
	}
}

// failure is an expected adapter error.
type failure struct {
	kind  model.FailureKind
	field string
	said  string
}

func (f failure) check(t *testing.T, err error) {
	t.Helper()
	e := errorOf(t, err)
	if e.Kind != f.kind || e.Field != f.field || told(e) != f.said {
		t.Errorf("error %+v, want kind %s field %q reason %s", e, f.kind, f.field, f.said)
	}
}

// TestForeachSummaryEdges covers summaries the recordings do not hold: a
// foreach step that never started, one that wrote nothing, and output that
// is not a summary.
func TestForeachSummaryEdges(t *testing.T) {
	t.Parallel()
	download := "/steps/each/log/download"
	tests := []struct {
		name      string
		intercept interceptor
		wantTotal int
		want      failure
	}{
		{
			name: "step never started",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				if !strings.HasSuffix(r.URL.Path, "/foreach_job/"+foreachRun) {
					return false
				}
				return answerJSON(w, http.StatusOK, `{"dagRunDetails":{"name":"foreach_job","dagRunId":"`+foreachRun+`","status":1,"statusLabel":"running",
					"rootDAGRunName":"foreach_job","rootDAGRunId":"`+foreachRun+`","log":"","startedAt":"","finishedAt":"",
					"nodes":[{"step":{"name":"each","executorConfig":{"type":"foreach"}},"stdout":"","stderr":"","startedAt":"-","finishedAt":"-",
					"status":0,"statusLabel":"not_started","retryCount":0,"doneCount":0}]}}`)
			},
		},
		{
			name: "no summary written",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				if !strings.HasSuffix(r.URL.Path, download) {
					return false
				}
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte("\n"))
				return true
			},
		},
		{
			name: "stdout file missing",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				return strings.HasSuffix(r.URL.Path, download) && answerJSON(w, http.StatusNotFound, notFoundJSON)
			},
		},
		{
			name: "output is not a summary",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				if !strings.HasSuffix(r.URL.Path, download) {
					return false
				}
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte("hello from a foreach step\n"))
				return true
			},
			want: failure{model.FailureUnsupported, "", said(model.ReasonForeachSummary)},
		},
		{name: "recorded summary", wantTotal: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{detect: true})
			env.setIntercept(tt.intercept)
			got, err := env.adapter.ListForeachItems(context.Background(), stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{})
			if tt.want != (failure{}) {
				tt.want.check(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != tt.wantTotal || got.Items == nil || len(got.Items) != tt.wantTotal {
				t.Errorf("got %+v, want %d items", got, tt.wantTotal)
			}
		})
	}
}

// TestForeachRouteVanishes: the server was replaced by an older one after
// detection found the foreach routes. The router-level 404 makes the read
// fall back to the summary and re-detects, at most once per interval.
func TestForeachRouteVanishes(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, detect: true})
	if caps, _ := env.adapter.Capabilities(); !caps.ForeachRoutes {
		t.Fatal("the newer fake was not detected")
	}
	older := env.swap(fakedagu.Options{Now: func() time.Time { return fakeNow }})
	addr := stepOf(runOf("foreach_job", foreachRun), "each")

	got, err := env.adapter.ListForeachItems(context.Background(), addr, model.ForeachQuery{})
	if err != nil || got.Source != "aggregate" || got.Total != 3 {
		t.Fatalf("fallback answer %+v, %v", got, err)
	}
	env.adapter.background.Wait()
	if caps, ok := env.adapter.Capabilities(); !ok || caps.ForeachRoutes {
		t.Fatalf("capabilities after the 404: %+v", caps)
	}

	// A second 404 inside the interval starts no second detection.
	env.adapter.caps.Store(&restclient.Capabilities{ForeachRoutes: true})
	older.Reset()
	if _, err := env.adapter.GetForeachItem(context.Background(), model.StepAddress{RunAddress: addr.RunAddress, StepName: "each", Item: "0"}); err != nil {
		t.Fatal(err)
	}
	env.adapter.background.Wait()
	for _, r := range older.Requests() {
		if strings.HasSuffix(r.Path, restclient.RouteHealth) {
			t.Errorf("re-detected again within %s", redetectInterval)
		}
	}
}

// TestForeachOn1xLooksUpTheRunFirst: a release with neither the /foreach
// routes nor step-log downloads (1.x) cannot read foreach items, but a
// foreach read there still looks the run up first, as every other run
// read does, with the calls that resolve the run and nothing more: a
// missing DAG, run, sub-run or step is not found and blames the value at
// fault, and only a step that exists in a run that exists is unsupported.
// The same read on 2.0 finds the step is not a foreach step.
func TestForeachOn1xLooksUpTheRunFirst(t *testing.T) {
	t.Parallel()
	plain := stepOf(runOf("failing_job", "latest"), "prepare")
	for _, p := range []fakedagu.Profile{fakedagu.Profile129, fakedagu.Profile117} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p}, detect: true})
			ctx := context.Background()
			failingID, parentID := latestIDOf(t, env, "failing_job"), latestIDOf(t, env, "parent_job")
			const v2 = "/api/v2/dag-runs/"
			failing, parent := v2+"failing_job/"+failingID, v2+"parent_job/"+parentID
			// latestCalls is how this release resolves latest: 1.17
			// has no alias and is read from the newest run of the list.
			latestCalls := func(name, run string) []string {
				if p == fakedagu.Profile117 {
					return []string{v2 + name + "/latest", v2 + name + "?fromDate=0", run}
				}
				return []string{v2 + name + "/latest"}
			}
			subRoute := "/sub-dag-runs/"
			if p == fakedagu.Profile117 {
				subRoute = "/children/"
			}
			subOfLatest := model.RunAddress{Name: "parent_job", DAGRunID: "latest", SubRunID: "no_such_sub"}
			reads := []struct {
				name  string
				read  func() error
				kind  model.FailureKind
				field string
				calls []string
			}{
				{name: "items of a plain step of latest", read: func() error {
					return ignore(env.adapter.ListForeachItems(ctx, plain, model.ForeachQuery{}))
				}, kind: model.FailureUnsupported, calls: latestCalls("failing_job", failing)},
				{name: "item of a plain step", read: func() error {
					return ignore(env.adapter.GetForeachItem(ctx, withItem(stepOf(runOf("failing_job", failingID), "prepare"), "0")))
				}, kind: model.FailureUnsupported, calls: []string{failing}},
				{name: "items of a missing step", read: func() error {
					return ignore(env.adapter.ListForeachItems(ctx, stepOf(runOf("failing_job", failingID), "prepar"), model.ForeachQuery{}))
				}, kind: model.FailureNotFound, field: model.FieldStepName, calls: []string{failing}},
				{name: "items of a missing run", read: func() error {
					return ignore(env.adapter.ListForeachItems(ctx, stepOf(runOf("failing_job", "no_such_run"), "explode"), model.ForeachQuery{Status: "failed"}))
				}, kind: model.FailureHTTP, field: model.FieldDAGRunID, calls: []string{v2 + "failing_job/no_such_run"}},
				{name: "item of latest of a missing DAG", read: func() error {
					return ignore(env.adapter.GetForeachItem(ctx, withItem(stepOf(runOf("no_such_dag", "latest"), "each"), "0")))
				}, kind: model.FailureHTTP, field: model.FieldDAGRunID, calls: []string{v2 + "no_such_dag/latest", v2 + "no_such_dag?fromDate=0"}},
				{name: "item of a missing sub-run of latest", read: func() error {
					return ignore(env.adapter.GetForeachItem(ctx, withItem(stepOf(subOfLatest, "each"), "1")))
				}, kind: model.FailureHTTP, field: model.FieldSubRunID,
					calls: append(latestCalls("parent_job", parent), parent+subRoute+"no_such_sub")},
			}
			for _, r := range reads {
				var err error
				calls := env.calls(func() { err = r.read() })
				e := errorOf(t, err)
				if e.Kind != r.kind || e.Field != r.field {
					t.Errorf("%s: %+v, want kind %v on %q", r.name, e, r.kind, r.field)
				}
				if e.Kind == model.FailureUnsupported && e.Reason != model.ReasonNoForeach {
					t.Errorf("%s: reason %q", r.name, e.Reason)
				}
				if want := canonicalCalls(r.calls); !slices.Equal(calls, want) {
					t.Errorf("%s: calls\n got %q\nwant %q", r.name, calls, want)
				}
			}
		})
	}
	t.Run("2.0", func(t *testing.T) {
		t.Parallel()
		env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: fakedagu.Profile20}, detect: true})
		_, err := env.adapter.ListForeachItems(context.Background(), plain, model.ForeachQuery{})
		if e := errorOf(t, err); e.Kind != model.FailureNotFound || e.Field != model.FieldStepName {
			t.Errorf("%+v, want the step not found", e)
		}
	})
}

// latestIDOf returns the ID of a DAG's latest run on the fake.
func latestIDOf(t *testing.T, env *adapterEnv, name string) string {
	t.Helper()
	run, err := env.adapter.GetRun(context.Background(), runOf(name, "latest"))
	if err != nil {
		t.Fatal(err)
	}
	return run.DAGRunID
}

func withItem(s model.StepAddress, item string) model.StepAddress {
	s.Item = item
	return s
}
