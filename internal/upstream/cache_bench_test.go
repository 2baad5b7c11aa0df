// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// cacheModes are the adapter settings the cache benchmarks compare.
var cacheModes = []struct {
	name  string
	apply func(*AdapterOptions)
}{
	{"uncached", func(*AdapterOptions) {}},
	{"cached", withCaches},
}

// BenchmarkFinishedRunReads repeats the reads an agent makes of one
// finished run, end to end over the fake Dagu, with and without caches.
func BenchmarkFinishedRunReads(b *testing.B) {
	failing := runOf("failing_job", failingRun)
	reads := []struct {
		name string
		read func(context.Context, *Adapter) error
	}{
		{"run", func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, failing)) }},
		{"run_logs", func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetRunLogs(ctx, failing, model.LogQuery{}))
		}},
		{"step_log", func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(failing, "explode"), model.LogQuery{}))
		}},
	}
	for _, r := range reads {
		for _, m := range cacheModes {
			b.Run(r.name+"/"+m.name, func(b *testing.B) {
				env := newAdapterEnv(b, envOptions{detect: true, adapter: m.apply})
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if err := r.read(ctx, env.adapter); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkListReads repeats one dags read with and without the micro-cache
// (the test clock stands still, so every cached read is a hit).
func BenchmarkListReads(b *testing.B) {
	for _, m := range cacheModes {
		b.Run("dags/"+m.name, func(b *testing.B) {
			env := newAdapterEnv(b, envOptions{detect: true, adapter: m.apply})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := env.adapter.ListDAGs(ctx, model.DAGListQuery{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunLogsMergedStreams reads run_logs of a finished run whose
// steps write both streams to one file (Dagu's merged log mode), uncached.
func BenchmarkRunLogsMergedStreams(b *testing.B) {
	env := newAdapterEnv(b, envOptions{detect: true})
	env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/api/v1/dag-runs/failing_job/"+failingRun {
			return answerJSON(w, http.StatusOK, mergedStreams(b, env, r))
		}
		return false
	})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := ignore(env.adapter.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{})); err != nil {
			b.Fatal(err)
		}
	}
}
