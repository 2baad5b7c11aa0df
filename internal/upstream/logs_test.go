// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// notFoundJSON is a handler-level 404 as Dagu writes it.
const notFoundJSON = `{"code":"not_found","message":"log file not found"}`

func TestRunLogsStreamFlagsAreExact(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{})
	// The explode step's stderr file is gone although its path is recorded.
	env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/steps/explode/log") && r.URL.Query().Get("stream") == "stderr" {
			return answerJSON(w, http.StatusNotFound, notFoundJSON)
		}
		return false
	})
	got, err := env.adapter.GetRunLogs(context.Background(), runOf("failing_job", "latest"), model.LogQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]bool{"prepare": {true, true}, "explode": {true, false}}
	if len(got.StepLogs) != len(want) {
		t.Fatalf("step logs %+v", got.StepLogs)
	}
	for _, s := range got.StepLogs {
		if w := want[s.StepName]; s.HasStdout != w[0] || s.HasStderr != w[1] {
			t.Errorf("%s: stdout %v stderr %v, want %v", s.StepName, s.HasStdout, s.HasStderr, w)
		}
		if !strings.Contains(s.LogURI, failingRun) {
			t.Errorf("%s: log URI %q does not use the resolved run ID", s.StepName, s.LogURI)
		}
	}
	if got.SchedulerLog.Content == "" || got.SchedulerLog.LineCount == 0 {
		t.Errorf("scheduler log %+v", got.SchedulerLog)
	}
}

// TestRunLogsMergedStreamsProbeOnce: in Dagu's merged log mode both
// streams of a step record the same file, so one probe answers both.
func TestRunLogsMergedStreamsProbeOnce(t *testing.T) {
	t.Parallel()
	for _, stdoutGone := range []bool{false, true} {
		env := newAdapterEnv(t, envOptions{})
		var mu sync.Mutex
		probes := map[string]int{}
		env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/api/v1/dag-runs/failing_job/"+failingRun {
				return answerJSON(w, http.StatusOK, mergedStreams(t, env, r))
			}
			if strings.HasSuffix(r.URL.Path, "/log") && strings.Contains(r.URL.Path, "/steps/") {
				mu.Lock()
				probes[r.URL.Query().Get("stream")]++
				mu.Unlock()
				if stdoutGone && strings.HasSuffix(r.URL.Path, "/steps/explode/log") {
					return answerJSON(w, http.StatusNotFound, notFoundJSON)
				}
			}
			return false
		})
		got, err := env.adapter.GetRunLogs(context.Background(), runOf("failing_job", failingRun), model.LogQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if probes["stdout"] != 2 || probes["stderr"] != 0 {
			t.Errorf("probes by stream %v, want one stdout probe per step", probes)
		}
		for _, s := range got.StepLogs {
			want := !(stdoutGone && s.StepName == "explode")
			if s.HasStdout != want || s.HasStderr != want {
				t.Errorf("file gone %v: %s: stdout %v stderr %v, want both %v", stdoutGone, s.StepName, s.HasStdout, s.HasStderr, want)
			}
		}
	}
}

// mergedStreams is the fake's answer to r with every step's stderr path
// set to its stdout path.
func mergedStreams(t testing.TB, env *adapterEnv, r *http.Request) string {
	rec := httptest.NewRecorder()
	env.fake.Load().ServeHTTP(rec, r)
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Error(err)
		return "{}"
	}
	details, _ := body["dagRunDetails"].(map[string]any)
	nodes, _ := details["nodes"].([]any)
	for _, n := range nodes {
		node := n.(map[string]any)
		node["stderr"] = node["stdout"]
	}
	out, err := json.Marshal(body)
	if err != nil {
		t.Error(err)
	}
	return string(out)
}

func TestRunLogsStepsWithoutPaths(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{})
	got, err := env.adapter.GetRunLogs(context.Background(), runOf("nested_foreach_job", nestedRun), model.LogQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.StepLogs {
		wantAny := s.StepName != "report"
		if s.HasStdout != wantAny || s.HasStderr != wantAny {
			t.Errorf("%s: stdout %v stderr %v", s.StepName, s.HasStdout, s.HasStderr)
		}
	}
}

func TestRunLogsFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		intercept interceptor
		addr      model.RunAddress
		wantErr   func(*model.Failure) bool
		wantEmpty bool
	}{
		{
			name: "scheduler log never written",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				return strings.HasSuffix(r.URL.Path, failingRun+"/log") && answerJSON(w, http.StatusNotFound, notFoundJSON)
			},
			addr: runOf("failing_job", failingRun), wantEmpty: true,
		},
		{
			name: "missing run",
			addr: runOf("failing_job", "nope"),
			wantErr: func(e *model.Failure) bool {
				return e.Status == http.StatusNotFound && e.Field == model.FieldDAGRunID
			},
		},
		{
			name: "a probe fails",
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				return strings.HasSuffix(r.URL.Path, "/steps/prepare/log") && answerJSON(w, http.StatusInternalServerError, `{"code":"internal_error","message":"x"}`)
			},
			addr:    runOf("failing_job", failingRun),
			wantErr: func(e *model.Failure) bool { return e.Status == http.StatusInternalServerError },
		},
		{
			name: "sub-runs have none",
			addr: model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun},
			wantErr: func(e *model.Failure) bool {
				return e.Kind == model.FailureInvalidInput && e.Field == model.FieldSubRunID
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{})
			env.setIntercept(tt.intercept)
			got, err := env.adapter.GetRunLogs(context.Background(), tt.addr, model.LogQuery{})
			if tt.wantErr != nil {
				if e := errorOf(t, err); !tt.wantErr(e) {
					t.Errorf("unexpected error %+v", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantEmpty && got.SchedulerLog != (model.LogWindow{}) {
				t.Errorf("scheduler log %+v, want empty", got.SchedulerLog)
			}
		})
	}
}

func TestStepLogContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		q          model.LogQuery
		wantStdout bool
		wantStderr bool
		wantStream string
	}{
		{"both streams", model.LogQuery{}, true, true, "stdout"},
		{"stdout only", model.LogQuery{Stream: "stdout"}, true, false, "stdout"},
		{"stderr only", model.LogQuery{Stream: "stderr"}, false, true, "stderr"},
	}
	env := newAdapterEnv(t, envOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := env.adapter.GetStepLog(context.Background(), stepOf(runOf("failing_job", failingRun), "explode"), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if (got.StdoutContent != "") != tt.wantStdout || (got.StderrContent != "") != tt.wantStderr || got.Stream != tt.wantStream {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestStepLogNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	body := func(item, bodyStep string) model.StepAddress {
		a := stepOf(runOf("foreach_job", foreachRun), "each")
		a.Item, a.BodyStepName = item, bodyStep
		return a
	}
	tests := []struct {
		name      string
		addr      model.StepAddress
		q         model.LogQuery
		wantKind  model.FailureKind
		wantField string
		wantSaid  string
	}{
		{name: "run", addr: stepOf(runOf("failing_job", "nope"), "explode"), wantKind: model.FailureHTTP, wantField: model.FieldDAGRunID},
		{name: "latest of a DAG without runs", addr: stepOf(runOf("no_such_dag", "latest"), "x"), wantKind: model.FailureHTTP, wantField: model.FieldDAGRunID},
		{name: "step", addr: stepOf(runOf("failing_job", failingRun), "nope"), wantKind: model.FailureHTTP, wantField: model.FieldStepName},
		{name: "sub-run", addr: stepOf(model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: "nope"}, "child_start"), wantKind: model.FailureHTTP, wantField: model.FieldSubRunID},
		{name: "root of a sub-run", addr: stepOf(model.RunAddress{Name: "parent_job", DAGRunID: "nope", SubRunID: childRun}, "child_start"), wantKind: model.FailureHTTP, wantField: model.FieldDAGRunID},
		{name: "sub-run step", addr: stepOf(sub, "nope"), wantKind: model.FailureHTTP, wantField: model.FieldStepName},
		{
			name: "no output at all", addr: stepOf(runOf("nested_foreach_job", nestedRun), "report"),
			wantKind: model.FailureNotFound, wantField: model.FieldStepName, wantSaid: said(model.ReasonNoLogOutput, "report"),
		},
		{
			name: "requested stream missing", addr: stepOf(runOf("nested_foreach_job", nestedRun), "report"), q: model.LogQuery{Stream: "stderr"},
			wantKind: model.FailureNotFound, wantField: model.ParamStream, wantSaid: said(model.ReasonNoStreamLog, "report", "", "", "stderr"),
		},
		{name: "bad stream", addr: stepOf(runOf("failing_job", failingRun), "explode"), q: model.LogQuery{Stream: "both"}, wantKind: model.FailureInvalidInput, wantField: model.ParamStream, wantSaid: said(model.ReasonBadStream)},
		{name: "foreach item", addr: body("7", "work"), wantKind: model.FailureHTTP, wantField: model.FieldItem},
		{name: "unreadable foreach item path", addr: body("x/y", "work"), wantKind: model.FailureHTTP, wantField: model.FieldItem},
		{name: "body step", addr: body("1", "nope"), wantKind: model.FailureHTTP, wantField: model.FieldBodyStepName},
		{
			name: "requested body-step stream missing", addr: body("0", "work"), q: model.LogQuery{Stream: "stderr"},
			wantKind: model.FailureNotFound, wantField: model.ParamStream, wantSaid: said(model.ReasonNoStreamLog, "each", "0", "work", "stderr"),
		},
		{
			name: "body step under a step that is not foreach", addr: func() model.StepAddress { a := body("0", "work"); a.StepName = "after"; return a }(),
			wantKind: model.FailureNotFound, wantField: model.FieldStepName, wantSaid: said(model.ReasonNotForeachStep, "after"),
		},
	}
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, detect: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := env.adapter.GetStepLog(context.Background(), tt.addr, tt.q)
			e := errorOf(t, err)
			if e.Kind != tt.wantKind || e.Field != tt.wantField || told(e) != tt.wantSaid {
				t.Errorf("error = %+v, want kind %s field %q reason %s", e, tt.wantKind, tt.wantField, tt.wantSaid)
			}
		})
	}
}

// TestBodyStepLogMissingStream: with both streams read, a body step
// without a stderr file answers its stdout and an empty stderr.
func TestBodyStepLogMissingStream(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, detect: true})
	addr := stepOf(runOf("foreach_job", "latest"), "each")
	addr.Item, addr.BodyStepName = "0", "work"
	got, err := env.adapter.GetStepLog(context.Background(), addr, model.LogQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got.StdoutContent != "working on alpha" || got.StderrContent != "" || got.Stream != "stdout" || got.LineCount != 1 {
		t.Errorf("got %+v", got)
	}
}

func TestBodyStepLogNeedsTheRoutes(t *testing.T) {
	t.Parallel()
	addr := stepOf(runOf("foreach_job", foreachRun), "each")
	addr.Item, addr.BodyStepName = "0", "work"
	for _, detect := range []bool{true, false} {
		env := newAdapterEnv(t, envOptions{detect: detect})
		_, err := env.adapter.GetStepLog(context.Background(), addr, model.LogQuery{})
		env.adapter.background.Wait()
		if e := errorOf(t, err); e.Kind != model.FailureUnsupported || e.Reason != model.ReasonNoBodyStepLogs {
			t.Errorf("detected %v: error %+v", detect, e)
		}
		if caps, ok := env.adapter.Capabilities(); !ok || caps.ForeachRoutes {
			t.Errorf("detected %v: capabilities %+v, %v after the failure", detect, caps, ok)
		}
	}
}

// TestBodyStepLogWithoutTheRoutesLooksUpTheRun: a body-step log on a
// release without the /foreach routes cannot be read, but the run and
// step are looked up first: a missing run or step is not found, a step
// that is not a foreach step is not found where releases have foreach
// steps, and only a step that could have the log is unsupported.
func TestBodyStepLogWithoutTheRoutesLooksUpTheRun(t *testing.T) {
	t.Parallel()
	body := func(name, id, step string) model.StepAddress {
		a := stepOf(runOf(name, id), step)
		a.Item, a.BodyStepName = "0", "work"
		return a
	}
	type want struct {
		kind  model.FailureKind
		field string
		said  string
	}
	unsupportedLog := want{kind: model.FailureUnsupported, said: said(model.ReasonNoBodyStepLogs)}
	reads := []struct {
		name string
		addr model.StepAddress
		// on2x and on1x are the answers where releases have foreach steps
		// (current without the routes, 2.0) and where they have none (1.x).
		on2x, on1x want
	}{
		{"missing run", body("failing_job", "no_such_run", "prepare"),
			want{kind: model.FailureHTTP, field: model.FieldDAGRunID}, want{kind: model.FailureHTTP, field: model.FieldDAGRunID}},
		{"latest of a missing DAG", body("no_such_dag", "latest", "each"),
			want{kind: model.FailureHTTP, field: model.FieldDAGRunID}, want{kind: model.FailureHTTP, field: model.FieldDAGRunID}},
		{"missing step", body("failing_job", "latest", "prepar"),
			want{kind: model.FailureNotFound, field: model.FieldStepName}, want{kind: model.FailureNotFound, field: model.FieldStepName}},
		{"plain step", body("failing_job", "latest", "prepare"),
			want{kind: model.FailureNotFound, field: model.FieldStepName, said: said(model.ReasonNotForeachStep, "prepare")}, unsupportedLog},
	}
	for _, p := range []fakedagu.Profile{fakedagu.ProfileCurrent, fakedagu.Profile20, fakedagu.Profile129, fakedagu.Profile117} {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p}, detect: true})
			for _, r := range reads {
				w := r.on2x
				if p == fakedagu.Profile129 || p == fakedagu.Profile117 {
					w = r.on1x
				}
				_, err := env.adapter.GetStepLog(context.Background(), r.addr, model.LogQuery{})
				if e := errorOf(t, err); e.Kind != w.kind || e.Field != w.field || told(e) != w.said {
					t.Errorf("%s: %+v, want %+v", r.name, e, w)
				}
			}
			if p == fakedagu.ProfileCurrent { // the recorded foreach run
				_, err := env.adapter.GetStepLog(context.Background(), body("foreach_job", "latest", "each"), model.LogQuery{})
				if e := errorOf(t, err); e.Kind != model.FailureUnsupported || e.Reason != model.ReasonNoBodyStepLogs {
					t.Errorf("foreach step: %+v, want unsupported", e)
				}
			}
		})
	}
}

// TestLostStepLogOnEveryRelease: a stream file Dagu lost, on a root run or
// a sub-run, answers the same on every release with sub-runs, although
// 1.x's handlers answer it with 500 where later ones answer 404: a lost
// stream next to one that reads is empty, a lost stream asked for alone
// is not found on stream, and a step whose streams are both lost has no
// output yet. Each read makes its stream calls and the one details read
// that finds the step, no more.
func TestLostStepLogOnEveryRelease(t *testing.T) {
	t.Parallel()
	latestOnEveryRelease(t, "parent_job", func(t *testing.T, p fakedagu.Profile, probe *adapterEnv, parent string) {
		run, err := probe.adapter.GetRun(context.Background(), runOf("parent_job", parent))
		if err != nil {
			t.Fatal(err)
		}
		var child string
		for _, s := range run.Steps {
			if s.Name == "run_child" && len(s.SubRuns) == 1 {
				child = s.SubRuns[0].SubRunID
			}
		}
		if child == "" {
			t.Fatalf("parent run %s names no sub-run", parent)
		}
		lost := []fakedagu.LostStepLog{
			{RunID: child, Step: "child_start", Stream: "stdout"},
			{RunID: parent, Step: "prepare", Stream: "stderr"},
			{RunID: parent, Step: "done", Stream: "stdout"}, {RunID: parent, Step: "done", Stream: "stderr"},
		}
		env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p, LostStepLogs: lost}, detect: true})
		sub := model.RunAddress{Name: "parent_job", DAGRunID: parent, SubRunID: child}
		read := func(addr model.StepAddress, q model.LogQuery) (*model.StepLog, int, error) {
			var got *model.StepLog
			var err error
			calls := env.calls(func() { got, err = env.adapter.GetStepLog(context.Background(), addr, q) })
			return got, len(calls), err
		}

		got, calls, err := read(stepOf(sub, "child_start"), model.LogQuery{})
		if err != nil || got.StdoutContent != "" || got.Stream != "stdout" || calls != 3 {
			t.Errorf("sub-run step, stdout lost: %+v, %v after %d calls", got, err, calls)
		}
		got, calls, err = read(stepOf(runOf("parent_job", parent), "prepare"), model.LogQuery{})
		if err != nil || got.StdoutContent == "" || got.StderrContent != "" || calls != 3 {
			t.Errorf("root step, stderr lost: %+v, %v after %d calls", got, err, calls)
		}
		_, calls, err = read(stepOf(sub, "child_start"), model.LogQuery{Stream: "stdout"})
		if e := errorOf(t, err); e.Kind != model.FailureNotFound || e.Field != model.ParamStream || told(e) != said(model.ReasonNoStreamLog, "child_start", "", "", "stdout") || calls != 2 {
			t.Errorf("sub-run step, lost stdout alone: %+v after %d calls", e, calls)
		}
		_, _, err = read(stepOf(runOf("parent_job", parent), "done"), model.LogQuery{})
		if e := errorOf(t, err); e.Kind != model.FailureNotFound || e.Field != model.FieldStepName || told(e) != said(model.ReasonNoLogOutput, "done") {
			t.Errorf("root step, both lost: %+v", e)
		}
	})
}

// TestLostSchedulerLogOnEveryRelease: a run whose scheduler log file Dagu
// lost answers run_logs the same on every release, although 1.x's handler
// answers it (and a lost step stream's probe) with 500 where later ones
// answer 404: an empty scheduler log (counts 0, hasMore false) and the
// lost stream marked absent, by ID and through latest. A missing run is
// still not found on dagRunId.
func TestLostSchedulerLogOnEveryRelease(t *testing.T) {
	t.Parallel()
	latestOnEveryRelease(t, "parent_job", func(t *testing.T, p fakedagu.Profile, _ *adapterEnv, id string) {
		env := newAdapterEnv(t, envOptions{detect: true, fake: fakedagu.Options{
			Profile: p, LostSchedulerLogs: []string{id},
			LostStepLogs: []fakedagu.LostStepLog{{RunID: id, Step: "prepare", Stream: "stderr"}},
		}})
		for _, addr := range []model.RunAddress{runOf("parent_job", id), runOf("parent_job", "latest")} {
			got, err := env.adapter.GetRunLogs(context.Background(), addr, model.LogQuery{Tail: 5})
			if err != nil {
				t.Fatalf("%s: %v", addr.DAGRunID, err)
			}
			if got.SchedulerLog != (model.LogWindow{}) || got.DAGRunID != id {
				t.Errorf("%s: scheduler log %+v of run %s, want empty of %s", addr.DAGRunID, got.SchedulerLog, got.DAGRunID, id)
			}
			for _, s := range got.StepLogs {
				if s.StepName == "prepare" && (!s.HasStdout || s.HasStderr) {
					t.Errorf("%s: prepare: stdout %v stderr %v, want true false", addr.DAGRunID, s.HasStdout, s.HasStderr)
				}
			}
		}
		_, err := env.adapter.GetRunLogs(context.Background(), runOf("parent_job", "nope"), model.LogQuery{})
		if e := errorOf(t, err); e.Status != http.StatusNotFound || e.Field != model.FieldDAGRunID {
			t.Errorf("missing run: %+v", e)
		}
	})
}

// releasesWithSubRuns are the fake Dagu's profiles of every release that
// records sub-runs.
var releasesWithSubRuns = []fakedagu.Profile{fakedagu.ProfileCurrent, fakedagu.Profile26, fakedagu.Profile20, fakedagu.Profile129, fakedagu.Profile117}

// latestOnEveryRelease runs test in parallel on each release with
// sub-runs, with an adapter of that release's fake Dagu and the ID of the
// DAG's latest recorded run there.
func latestOnEveryRelease(t *testing.T, dag string, test func(t *testing.T, p fakedagu.Profile, probe *adapterEnv, id string)) {
	t.Helper()
	for _, p := range releasesWithSubRuns {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			probe := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: p}, detect: true})
			test(t, p, probe, latestIDOf(t, probe, dag))
		})
	}
}
