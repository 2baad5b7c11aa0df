// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestFirstReadsWaitForTheDialect: a started adapter over a Dagu 1.29
// whose detection is held answers every read sent meanwhile in 1.29's
// dialect once detection ends: all reads wait for that one detection
// (/health is asked once), and none goes ahead in the current dialect.
func TestFirstReadsWaitForTheDialect(t *testing.T) {
	t.Parallel()
	reads := map[string]func(ctx context.Context, a *Adapter) error{
		"run latest": func(ctx context.Context, a *Adapter) error {
			run, err := a.GetRun(ctx, runOf("failing_job", "latest"))
			if err == nil && (run.Name != "failing_job" || run.DAGRunID == "") {
				t.Errorf("latest failing_job run: %+v", run)
			}
			return err
		},
		"runs of a DAG": func(ctx context.Context, a *Adapter) error {
			runs, err := a.ListRuns(ctx, model.RunListQuery{Name: "failing_job"})
			if err == nil && len(runs.Items) == 0 {
				t.Error("no failing_job runs listed")
			}
			return err
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: fakedagu.Profile129}})
			gate, held := make(chan struct{}), make(chan struct{})
			var healthAsked atomic.Int32
			var wentAhead atomic.Bool
			env.setIntercept(func(_ http.ResponseWriter, r *http.Request) bool {
				switch {
				case strings.HasSuffix(r.URL.Path, "/health"):
					if healthAsked.Add(1) == 1 {
						close(held)
					}
					<-gate
				case !isDetectionCall(r):
					select {
					case <-gate:
					default:
						wentAhead.Store(true)
					}
				}
				return false
			})
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			env.adapter.Start(ctx)
			<-held
			const n = 20
			errs := make(chan error, n)
			for range n {
				go func() { errs <- read(ctx, env.adapter) }()
			}
			// Released once every read waits, or as soon as one went
			// ahead without waiting (the bug this test is for).
			// The deadline only keeps a broken adapter from hanging the test.
			for deadline := time.Now().Add(time.Minute); env.adapter.dialectWaits.Load() < n && !wentAhead.Load() && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			close(gate)
			for range n {
				if err := <-errs; err != nil {
					t.Errorf("read: %v", err)
				}
			}
			if wentAhead.Load() {
				t.Error("a read reached Dagu before the first detection ended")
			}
			if got := healthAsked.Load(); got != 1 {
				t.Errorf("/health asked %d times, want 1 (one detection shared by every read)", got)
			}
		})
	}
}

// isDetectionCall reports a call of capability detection on a Dagu 1.29
// (which publishes no OpenAPI document, so its routes are probed): the
// probes name probeQuery or ask for runs in 2100.
func isDetectionCall(r *http.Request) bool {
	return strings.Contains(r.URL.Path, capabilityProbe) || strings.Contains(r.URL.RawQuery, capabilityProbe) ||
		strings.Contains(r.URL.RawQuery, "fromDate=4102444800") ||
		strings.HasSuffix(r.URL.Path, "/openapi.json") || strings.HasSuffix(r.URL.Path, "/auth/me")
}

// TestFirstReadOfAnUnreachableDagu: a read before any detection, of a
// Dagu that sends no answer, fails as the same read after detection does
// (never as a not-found).
func TestFirstReadOfAnUnreachableDagu(t *testing.T) {
	t.Parallel()
	hangUp := func(w http.ResponseWriter, _ *http.Request) bool {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = conn.Close()
		}
		return true
	}
	failures := map[bool]*model.Failure{}
	for _, detected := range []bool{true, false} {
		env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Profile: fakedagu.Profile129}, detect: detected})
		env.setIntercept(hangUp)
		_, err := env.adapter.GetRun(context.Background(), runOf("failing_job", "latest"))
		failures[detected] = errorOf(t, err)
	}
	got, want := failures[false], failures[true]
	if got.Kind != want.Kind || got.Reason != want.Reason || got.Status != want.Status {
		t.Errorf("first read: %+v, want the failure of a read after detection: %+v", got, want)
	}
	if got.Kind == model.FailureHTTP {
		t.Errorf("first read of an unreachable Dagu failed with an HTTP failure: %+v", got)
	}
}

// capabilityProbe is the name restclient's probes search for.
const capabilityProbe = "dagu-mcp-gateway-capability-probe"
