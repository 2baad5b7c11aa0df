// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// listStep is one read of a micro-cache script: move the clock, read, and
// expect the calls.
type listStep struct {
	advance time.Duration
	read    func(context.Context, *Adapter) error
	want    []string
}

func TestListMicroCache(t *testing.T) {
	t.Parallel()
	dags := func(ctx context.Context, a *Adapter) error { return ignore(a.ListDAGs(ctx, model.DAGListQuery{})) }
	dagsPage2 := func(ctx context.Context, a *Adapter) error {
		return ignore(a.ListDAGs(ctx, model.DAGListQuery{Page: 2, PerPage: 3}))
	}
	dag := func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) }
	runs := func(ctx context.Context, a *Adapter) error { return ignore(a.ListRuns(ctx, model.RunListQuery{})) }
	runsFrom := func(at time.Time) string { return "/dag-runs?fromDate=" + fromDateOf(at) }
	tests := []struct {
		name  string
		ttl   time.Duration
		steps []listStep
	}{
		{"dags reused within the TTL, read again after it", time.Second, []listStep{
			{read: dags, want: []string{"/dags"}},
			{advance: 999 * time.Millisecond, read: dags},
			{advance: time.Millisecond, read: dags, want: []string{"/dags"}},
		}},
		{"each query has its own entry", time.Second, []listStep{
			{read: dags, want: []string{"/dags"}},
			{read: dagsPage2, want: []string{"/dags?page=2&perPage=3"}},
			{read: dags}, {read: dagsPage2},
		}},
		{"dag", time.Second, []listStep{
			{read: dag, want: []string{"/dags/failing_job"}},
			{read: dag},
		}},
		{"runs reused only for the same window", time.Hour, []listStep{
			{read: runs, want: []string{runsFrom(fakeNow)}},
			{advance: 500 * time.Millisecond, read: runs},
			{advance: 500 * time.Millisecond, read: runs, want: []string{runsFrom(fakeNow.Add(time.Second))}},
			{read: runs},
		}},
		{"off", -1, []listStep{
			{read: dags, want: []string{"/dags"}},
			{read: dags, want: []string{"/dags"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := testkit.NewClock(fakeNow)
			env := newAdapterEnv(t, envOptions{detect: true, adapter: func(o *AdapterOptions) {
				o.ListCacheTTL, o.Now = tt.ttl, clock.Now
			}})
			for i, s := range tt.steps {
				clock.Advance(s.advance)
				var err error
				got := env.calls(func() { err = s.read(context.Background(), env.adapter) })
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if want := canonicalCalls(s.want); !slices.Equal(got, want) {
					t.Errorf("step %d calls:\n got %q\nwant %q", i, got, want)
				}
			}
		})
	}
}

// TestConcurrentListReadsShareOneCall holds Dagu's answer until every
// caller waits on the same call, with the micro-cache off: identical
// concurrent reads still cost one call, and every caller gets the answer.
func TestConcurrentListReadsShareOneCall(t *testing.T) {
	const callers = 16
	reads := map[string]func(context.Context, *Adapter) error{
		"dags": func(ctx context.Context, a *Adapter) error { return ignore(a.ListDAGs(ctx, model.DAGListQuery{})) },
		"dag":  func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) },
		"runs": func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListRuns(ctx, model.RunListQuery{Status: []int{2}}))
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			env := newAdapterEnv(t, envOptions{detect: true})
			// The hold ends with the request too: should the call time out
			// before every caller joined, the test fails instead of hanging
			// on a handler that waits for callers who already left.
			env.setIntercept(func(_ http.ResponseWriter, r *http.Request) bool {
				for env.adapter.lists.flights.Waiting() < callers && r.Context().Err() == nil {
					runtime.Gosched()
				}
				return false
			})
			calls := env.calls(func() {
				var wg sync.WaitGroup
				for range callers {
					wg.Go(func() {
						if err := read(context.Background(), env.adapter); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
			})
			if len(calls) != 1 || !strings.HasPrefix(calls[0], "/dag") {
				t.Errorf("calls %q, want one", calls)
			}
		})
	}
}

// TestLeavingCallerReadsAsCanceled: a caller whose context ends while it
// waits on a shared call gets the failure an unshared call would give.
func TestLeavingCallerReadsAsCanceled(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{detect: true})
	release := make(chan struct{})
	env.setIntercept(func(http.ResponseWriter, *http.Request) bool {
		<-release
		return false
	})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ignore(env.adapter.ListDAGs(ctx, model.DAGListQuery{})) }()
	for env.adapter.lists.flights.Waiting() < 1 {
		runtime.Gosched()
	}
	cancel()
	if e := errorOf(t, <-done); e.Kind != model.FailureCanceled {
		t.Errorf("failure %+v, want a cancellation", e)
	}
}
