// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

func TestNewAdapterNeedsAClient(t *testing.T) {
	t.Parallel()
	if _, err := NewAdapter(AdapterOptions{}); err == nil {
		t.Fatal("no error without a client")
	}
}

func TestAdapterDefaults(t *testing.T) {
	t.Parallel()
	o := AdapterOptions{}.withDefaults()
	if o.RunWindow != DefaultRunWindow || o.RunLogsTail != DefaultRunLogsTail ||
		o.StepLogTail != DefaultStepLogTail || o.CapabilityRefresh != DefaultCapabilityRefresh || o.Now == nil || o.Logger == nil {
		t.Errorf("defaults %+v", o)
	}
}

func isCanceled(err error) bool {
	if errors.Is(err, context.Canceled) {
		return true
	}
	e, ok := model.AsFailure(err)
	return ok && e.Kind == model.FailureCanceled
}

// TestCanceledContext: every read gives up on a canceled context.
func TestCanceledContext(t *testing.T) {
	t.Parallel()
	run := runOf("failing_job", "latest")
	reads := map[string]func(context.Context, *Adapter) error{
		"dags":      func(ctx context.Context, a *Adapter) error { return ignore(a.ListDAGs(ctx, model.DAGListQuery{})) },
		"dag":       func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAG(ctx, "failing_job")) },
		"dag spec":  func(ctx context.Context, a *Adapter) error { return ignore(a.GetDAGSpec(ctx, "failing_job")) },
		"dag names": func(ctx context.Context, a *Adapter) error { return ignore(a.DAGNames(ctx)) },
		"search": func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchDAGs(ctx, model.DAGSearchQuery{Search: "x"}))
		},
		"wiki":      func(ctx context.Context, a *Adapter) error { return ignore(a.ListWiki(ctx, model.WikiListQuery{})) },
		"wiki page": func(ctx context.Context, a *Adapter) error { return ignore(a.GetWikiPage(ctx, "default", "x")) },
		"wiki search": func(ctx context.Context, a *Adapter) error {
			return ignore(a.SearchWiki(ctx, model.WikiSearchQuery{Search: "x"}))
		},
		"runs":     func(ctx context.Context, a *Adapter) error { return ignore(a.ListRuns(ctx, model.RunListQuery{})) },
		"run":      func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, run)) },
		"run logs": func(ctx context.Context, a *Adapter) error { return ignore(a.GetRunLogs(ctx, run, model.LogQuery{})) },
		"step log": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetStepLog(ctx, stepOf(run, "explode"), model.LogQuery{}))
		},
		"foreach items": func(ctx context.Context, a *Adapter) error {
			return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", "latest"), "each"), model.ForeachQuery{}))
		},
		"foreach item": func(ctx context.Context, a *Adapter) error {
			return ignore(a.GetForeachItem(ctx, model.StepAddress{RunAddress: runOf("foreach_job", "latest"), StepName: "each", Item: "0"}))
		},
	}
	env := newAdapterEnv(t, envOptions{detect: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			if err := read(ctx, env.adapter); !isCanceled(err) {
				t.Errorf("error %v, want a cancellation", err)
			}
		})
	}
}

// TestCancelDuringProbes cancels a run_logs read while its probes are in
// flight: the read ends with the cancellation, and no probe outlives it.
func TestCancelDuringProbes(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.Contains(r.URL.Path, "/steps/") {
			return false
		}
		cancel()
		<-r.Context().Done()
		return true
	})
	_, err := env.adapter.GetRunLogs(ctx, runOf("failing_job", failingRun), model.LogQuery{})
	if !isCanceled(err) {
		t.Errorf("error %v, want a cancellation", err)
	}
}

// TestStartDetectsAndStops: Start detects at once and its goroutine ends
// with the context.
func TestStartDetectsAndStops(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Foreach: fakedagu.ForeachRoutes}})
	if _, ok := env.adapter.Capabilities(); ok {
		t.Fatal("capabilities before any detection")
	}
	ctx, cancel := context.WithCancel(context.Background())
	env.adapter.Start(ctx)
	env.adapter.Start(ctx) // a second Start does nothing
	// No deadline: on a loaded machine detection may take any time; if it
	// never succeeds, go test's timeout reports the stuck goroutines.
	for {
		if caps, ok := env.adapter.Capabilities(); ok {
			if !caps.ForeachRoutes || !caps.EventLogs || caps.Version == "" {
				t.Errorf("capabilities %+v", caps)
			}
			break
		}
		time.Sleep(5 * time.Millisecond) // polling pace
	}
	cancel()
	env.adapter.background.Wait()
}

// TestFirstDetectionIsHandedOver: the outcome of Start's first detection
// goes to OnFirstDetection, once, whether it succeeded or Dagu refused the
// key; later detections do not.
func TestFirstDetectionIsHandedOver(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		key        string
		wantStatus int
	}{
		{"accepted", fakedagutest.APIKey, 0},
		{"refused", "dagu_not_the_key", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			type outcome struct {
				caps restclient.Capabilities
				err  error
			}
			got := make(chan outcome, 4)
			env := newAdapterEnv(t, envOptions{adapter: func(o *AdapterOptions) {
				o.CapabilityRefresh = time.Millisecond
				o.OnFirstDetection = func(_ context.Context, caps restclient.Capabilities, err error) { got <- outcome{caps, err} }
			}})
			env.key.set(tc.key)
			ctx, cancel := context.WithCancel(context.Background())
			env.adapter.Start(ctx)
			first := <-got
			for len(env.fake.Load().Requests()) < 20 { // later detections run, and report nothing
				time.Sleep(time.Millisecond)
			}
			cancel()
			env.adapter.Wait()
			if len(got) != 0 {
				t.Errorf("%d more outcomes handed over, want only the first", len(got))
			}
			e, _ := restclient.AsError(first.err)
			switch {
			case tc.wantStatus == 0 && (first.err != nil || first.caps.Version == ""):
				t.Errorf("first detection %+v, %v; want the capabilities", first.caps, first.err)
			case tc.wantStatus != 0 && (e == nil || e.Status != tc.wantStatus):
				t.Errorf("first detection error %v, want HTTP %d", first.err, tc.wantStatus)
			}
		})
	}
}

func TestRefreshKeepsTheLastSuccess(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{detect: true})
	before, _ := env.adapter.Capabilities()
	env.fake.Load().Inject(fakedagu.Fault{Route: restclient.RouteHealth, Status: http.StatusServiceUnavailable})
	if _, err := env.adapter.Refresh(context.Background()); err == nil {
		t.Fatal("refresh did not fail")
	}
	if after, ok := env.adapter.Capabilities(); !ok || !after.DetectedAt.Equal(before.DetectedAt) {
		t.Errorf("capabilities changed by a failed refresh: %+v", after)
	}
}

// BenchmarkAdapterListDAGs measures one dags read end to end: adapter,
// guarded transport, the fake server and the mapping.
func BenchmarkAdapterListDAGs(b *testing.B) {
	env := newAdapterEnv(b, envOptions{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := env.adapter.ListDAGs(ctx, model.DAGListQuery{}); err != nil {
			b.Fatal(err)
		}
	}
}
