// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// withCaches turns every cache on at its recommended size: the DAG
// caches, the run cache and the list micro-cache.
func withCaches(o *AdapterOptions) {
	o.DAGCacheTTL = DefaultDAGCacheTTL
	o.RunCacheBytes = DefaultRunCacheBytes
	o.ListCacheTTL = DefaultListCacheTTL
}

func cachedEnv(t testing.TB, fake fakedagu.Options) *adapterEnv {
	t.Helper()
	return newAdapterEnv(t, envOptions{fake: fake, adapter: withCaches, detect: true})
}

// repeatCase is a read made twice, with the REST calls each must make.
type repeatCase struct {
	name   string
	fake   fakedagu.Options
	before func(ctx context.Context, a *Adapter) error // an earlier read, if any
	read   func(ctx context.Context, a *Adapter) error
	first  []string
	second []string
}

func TestRunCacheRepeatedReads(t *testing.T) {
	t.Parallel()
	failing := "/dag-runs/failing_job/" + failingRun
	parent := "/dag-runs/parent_job/" + parentRun
	child := parent + "/sub-dag-runs/" + childRun
	foreach := "/dag-runs/foreach_job/" + foreachRun
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	body := stepOf(runOf("foreach_job", foreachRun), "each")
	body.Item, body.BodyStepName = "1", "work"
	readRoot := func(ctx context.Context, a *Adapter) error {
		return ignore(a.GetRun(ctx, runOf("parent_job", parentRun)))
	}
	tests := []repeatCase{
		{name: "run", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
		}, first: []string{failing}},
		{name: "run with its attempt ID", fake: fakedagu.Options{Role: "manager"}, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
		}, first: []string{failing, "/event-logs?dagName=failing_job&dagRunId=" + failingRun + "&kind=dag_run&limit=1"}},
		// latest is first read through the alias (no cached run could
		// answer it, so a summary would only add a round trip); once its
		// run is cached, it resolves through the DAG's newest-run summary,
		// a list read shared for the list TTL, and a finished latest run
		// is answered from the cache with no full read.
		{name: "run latest resolves through the newest-run summary once cached", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", "latest")))
		}, first: []string{"/dag-runs/failing_job/latest"}, second: []string{newestSummary("failing_job")}},
		{name: "sub-run of a cached root", before: readRoot, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, sub))
		}, first: []string{child}},
		{name: "sub-run of an unknown root is not cached", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, sub))
		}, first: []string{child}, second: []string{child}},
		{name: "run logs", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{}))
		}, first: []string{
			failing, failing + "/log?tail=200",
			failing + "/steps/prepare/log?head=1&stream=stdout", failing + "/steps/prepare/log?head=1&stream=stderr",
			failing + "/steps/explode/log?head=1&stream=stdout", failing + "/steps/explode/log?head=1&stream=stderr",
		}},
		{name: "run logs in another window reuse the probes", before: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{}))
		}, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{Head: 2}))
		}, first: []string{failing + "/log?head=2"}},
		{name: "step log", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{}))
		}, first: []string{failing, failing + "/steps/explode/log?stream=stdout&tail=200", failing + "/steps/explode/log?stream=stderr&tail=200"}},
		{name: "step log after the run", before: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
		}, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "explode"), model.LogQuery{Stream: "stderr", Limit: 3}))
		}, first: []string{failing + "/steps/explode/log?limit=3&stream=stderr"}},
		{name: "step log of a missing step", read: func(ctx context.Context, a *Adapter) error {
			_, err := a.GetStepLog(ctx, stepOf(runOf("failing_job", failingRun), "no_such_step"), model.LogQuery{})
			return expectField(err, model.FieldStepName)
		}, first: []string{failing, failing + "/steps/no_such_step/log?stream=stdout&tail=200", failing + "/steps/no_such_step/log?stream=stderr&tail=200"}},
		{name: "sub-run step log", before: readRoot, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(sub, "child_start"), model.LogQuery{Stream: "stdout"}))
		}, first: []string{child, child + "/steps/child_start/log?stream=stdout&tail=200"}},
		{name: "body step log", fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}, read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, body, model.LogQuery{}))
		}, first: []string{
			foreach,
			foreach + "/steps/each/foreach/1/steps/work/log?stream=stdout&tail=200",
			foreach + "/steps/each/foreach/1/steps/work/log?stream=stderr&tail=200",
		}},
		{name: "foreach items from the summary reuse the details", read: func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
		}, first: []string{foreach, foreach + "/steps/each/log/download?stream=stdout"},
			second: []string{foreach + "/steps/each/log/download?stream=stdout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := cachedEnv(t, tt.fake)
			ctx := context.Background()
			if tt.before != nil {
				if err := tt.before(ctx, env.adapter); err != nil {
					t.Fatal(err)
				}
			}
			for i, want := range [][]string{tt.first, tt.second} {
				var err error
				got := env.calls(func() { err = tt.read(ctx, env.adapter) })
				if err != nil {
					t.Fatalf("read %d failed: %v", i+1, err)
				}
				if want := canonicalCalls(want); !slices.Equal(got, want) {
					t.Errorf("read %d calls:\n got %q\nwant %q", i+1, got, want)
				}
			}
		})
	}
}

// expectField turns the expected failure into success and anything else
// into an error.
func expectField(err error, field string) error {
	if e, ok := model.AsFailure(err); ok && e.Field == field {
		return nil
	}
	if err == nil {
		return errUnexpectedSuccess
	}
	return err
}

var errUnexpectedSuccess = errors.New("the read succeeded")

// TestRunningRunIsAlwaysReRead: nothing of a run that is still running is
// kept; every read asks Dagu again.
func TestRunningRunIsAlwaysReRead(t *testing.T) {
	t.Parallel()
	running := runOf("nested_foreach_job", nestedRun)
	reads := map[string]func(context.Context, *Adapter) error{
		"run": func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, running)) },
		"run logs": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, running, model.LogQuery{}))
		},
		"step log": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(running, "setup"), model.LogQuery{}))
		},
		"run latest": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("nested_foreach_job", "latest")))
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			env := cachedEnv(t, fakedagu.Options{})
			var first []string
			for i := range 3 {
				var err error
				got := env.calls(func() { err = read(context.Background(), env.adapter) })
				if err != nil {
					t.Fatal(err)
				}
				// The newest-run summary that resolves latest is a list
				// read, shared for the list TTL; the run's own reads are
				// what must repeat.
				got = slices.DeleteFunc(got, func(c string) bool { return c == newestSummary("nested_foreach_job") })
				if i == 0 {
					first = got
					if len(first) == 0 {
						t.Fatal("the first read made no call")
					}
					continue
				}
				if !slices.Equal(got, first) {
					t.Errorf("read %d calls %q, want the first read's %q", i+1, got, first)
				}
			}
		})
	}
}

// TestRunCacheByteBudget: the cache never holds more than its budget, and
// a run too large for it is simply read again.
func TestRunCacheByteBudget(t *testing.T) {
	t.Parallel()
	const budget = 4 << 10
	env := newAdapterEnv(t, envOptions{detect: true, adapter: func(o *AdapterOptions) { o.RunCacheBytes = budget }})
	ctx := context.Background()
	runs := []model.RunAddress{
		runOf("failing_job", failingRun), runOf("parent_job", parentRun), runOf("foreach_job", foreachRun),
		runOf("big_log_job", "0356UUo2lMk0yUwBDR9c0n"), runOf("mcp_read_contract", "0356UUmdcNPeDAsLFkyccZ"),
	}
	for range 2 {
		for _, r := range runs {
			if _, err := env.adapter.GetRunLogs(ctx, r, model.LogQuery{}); err != nil {
				t.Fatal(err)
			}
			if s := env.adapter.runs.stats(); s.Bytes > budget {
				t.Fatalf("the run cache holds %d bytes, over its %d budget", s.Bytes, budget)
			}
		}
	}
	if s := env.adapter.runs.stats(); s.Evictions == 0 {
		t.Errorf("no eviction under a tight budget: %+v", s)
	}
}

// TestRunCacheSeesRetries: a run whose state changed behind the cache (a
// retry under the same ID) is dropped as soon as a read shows the change.
func TestRunCacheSeesRetries(t *testing.T) {
	t.Parallel()
	failing := runOf("failing_job", failingRun)
	retried := func(w http.ResponseWriter, r *http.Request) bool {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dag-runs/failing_job/latest"):
			return answerJSON(w, http.StatusOK, `{"dagRunDetails":{"dagRunId":"`+failingRun+`","name":"failing_job","status":1,"statusLabel":"running","startedAt":"2026-11-30T11:59:00Z","finishedAt":"","nodes":[]}}`)
		case strings.HasSuffix(r.URL.Path, "/dag-runs"), strings.HasSuffix(r.URL.Path, "/dag-runs/failing_job"):
			return answerJSON(w, http.StatusOK, `{"dagRuns":[{"dagRunId":"`+failingRun+`","name":"failing_job","status":1,"statusLabel":"running","startedAt":"2026-11-30T11:59:00Z","finishedAt":""}]}`)
		case strings.HasSuffix(r.URL.Path, "/dags/failing_job"):
			return answerJSON(w, http.StatusOK, `{"latestDAGRun":{"dagRunId":"`+failingRun+`","name":"failing_job","status":1,"statusLabel":"running","startedAt":"2026-11-30T11:59:00Z","finishedAt":"","nodes":[]},"suspended":false}`)
		}
		return false
	}
	observations := map[string]func(context.Context, *Adapter) error{
		"latest": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRun(ctx, runOf("failing_job", "latest")))
		},
		"run list": func(ctx context.Context, a *Adapter) error { return ignore(a.ListRuns(ctx, model.RunListQuery{})) },
		"dag":      func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) },
	}
	for name, observe := range observations {
		t.Run(name, func(t *testing.T) {
			env := cachedEnv(t, fakedagu.Options{})
			ctx := context.Background()
			if _, err := env.adapter.GetStepLog(ctx, stepOf(failing, "explode"), model.LogQuery{}); err != nil {
				t.Fatal(err)
			}
			env.setIntercept(retried)
			if err := observe(ctx, env.adapter); err != nil {
				t.Fatal(err)
			}
			env.setIntercept(nil)
			calls := env.calls(func() {
				if _, err := env.adapter.GetStepLog(ctx, stepOf(failing, "explode"), model.LogQuery{}); err != nil {
					t.Fatal(err)
				}
			})
			if len(calls) == 0 {
				t.Error("the retried run's step log was served from the cache")
			}
		})
	}
}

// TestCachesAreOffInTheZeroOptions: an adapter built without the new
// settings behaves as before: every read of a finished run asks Dagu.
func TestCachesAreOffInTheZeroOptions(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{detect: true})
	if env.adapter.runs.enabled() || env.adapter.lists.enabled() || env.adapter.opts.RunCacheTTL != DefaultRunCacheTTL {
		t.Fatalf("caches on by default: runs %v, lists %v, options %+v", env.adapter.runs.enabled(), env.adapter.lists.enabled(), env.adapter.opts)
	}
	for i := range 2 {
		calls := env.calls(func() {
			if _, err := env.adapter.GetRun(context.Background(), runOf("failing_job", failingRun)); err != nil {
				t.Fatal(err)
			}
		})
		if len(calls) != 1 {
			t.Errorf("read %d made calls %q, want one", i+1, calls)
		}
	}
}

// newestSummary is the call that reads a DAG's newest-run summary when
// latest is resolved with the caches on.
func newestSummary(name string) string {
	return canonicalCalls([]string{"/dag-runs/" + name + "?fromDate=0&limit=1"})[0]
}

// TestRunCacheCallersKeepTheirParts: callers who read Dagu with the same
// credential (token mode) share the run cache's entries, but each holds at
// most a fair part of its bytes: a caller reading one distinct log window
// after another drops its own windows, not another caller's, while a
// single caller doing the same still uses the whole cache (issue 38).
func TestRunCacheCallersKeepTheirParts(t *testing.T) {
	t.Parallel()
	spew := stepOf(runOf("big_log_job", "0356UUo2lMk0yUwBDR9c0n"), "spew")
	tests := []struct {
		name     string
		attacker string // the caller reading distinct windows
		// victimCalls is how many calls the victim's second read makes.
		victimCalls int
	}{
		{name: "another caller's distinct windows leave the victim's window", attacker: "attacker", victimCalls: 0},
		{name: "the victim's own distinct windows push its first out", attacker: "victim", victimCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Room for about 10 windows of 200 lines (6 KB each).
			const budget = 64 << 10
			env := newAdapterEnv(t, envOptions{detect: true, adapter: func(o *AdapterOptions) { o.RunCacheBytes = budget }})
			victim := reqctx.With(context.Background(), reqctx.Info{Caller: "victim"})
			attacker := reqctx.With(context.Background(), reqctx.Info{Caller: tt.attacker})
			read := func(ctx context.Context, tail int) {
				t.Helper()
				if _, err := env.adapter.GetStepLog(ctx, spew, model.LogQuery{Tail: tail, Stream: "stdout"}); err != nil {
					t.Fatal(err)
				}
			}
			read(victim, 200)
			for i := range 40 {
				read(attacker, 201+i)
				if s := env.adapter.runs.stats(); s.Bytes > budget {
					t.Fatalf("the run cache holds %d bytes, over its %d budget", s.Bytes, budget)
				}
			}
			if s := env.adapter.runs.stats(); s.Evictions == 0 || s.Bytes < budget/2 {
				t.Fatalf("the attacker's windows did not fill the cache: %+v", s)
			}
			calls := env.calls(func() { read(victim, 200) })
			if len(calls) != tt.victimCalls {
				t.Errorf("the victim's second read made calls %q, want %d", calls, tt.victimCalls)
			}
		})
	}
}
