// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// pairWait bounds how long a held request waits for its partner. It is
// not a measure of speed: a read that sends the two calls together pairs
// them at once, and one that chains them never does.
const pairWait = 5 * time.Second

// pairing holds the first request matching lead until one matching follow
// has arrived (or pairWait passed), and records whether it did: the two
// calls were in flight together, so the read waits on one round trip for
// both. A read that sends follow only after lead's answer leaves it
// unpaired.
type pairing struct {
	lead, follow func(path string) bool
	arrived      chan struct{}
	once         sync.Once
	paired       atomic.Bool
	held         atomic.Bool
}

func newPairing(lead, follow func(path string) bool) *pairing {
	return &pairing{lead: lead, follow: follow, arrived: make(chan struct{})}
}

func (p *pairing) intercept(_ http.ResponseWriter, r *http.Request) bool {
	switch {
	case p.follow(r.URL.Path):
		p.once.Do(func() { close(p.arrived) })
	case p.lead(r.URL.Path) && p.held.CompareAndSwap(false, true):
		select {
		case <-p.arrived:
			p.paired.Store(true)
		case <-time.After(pairWait):
		case <-r.Context().Done():
		}
	}
	return false
}

func pathEnds(suffix string) func(string) bool {
	return func(path string) bool { return strings.HasSuffix(path, suffix) }
}

// TestReadsSendIndependentCallsTogether: where a read needs two calls
// that do not depend on each other, both are in flight at once.
func TestReadsSendIndependentCallsTogether(t *testing.T) {
	t.Parallel()
	foreachDetails := pathEnds("/dag-runs/foreach_job/" + foreachRun)
	summary := pathEnds("/steps/each/log/download")
	item := stepOf(runOf("foreach_job", foreachRun), "each")
	item.Item = "1"
	events := pathEnds("/event-logs")
	sub := model.RunAddress{Name: "parent_job", DAGRunID: parentRun, SubRunID: childRun}
	tests := []struct {
		name         string
		role         string
		lead, follow func(string) bool
		read         func(ctx context.Context, a *Adapter) error
	}{
		{
			name: "run: the details and the attempt's event", role: "manager", lead: pathEnds("/dag-runs/failing_job/" + failingRun), follow: events,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetRun(ctx, runOf("failing_job", failingRun)))
			},
		},
		{
			name: "run latest: the alias and the DAG's newest event", role: "manager", lead: pathEnds("/dag-runs/failing_job/latest"), follow: events,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.GetRun(ctx, runOf("failing_job", "latest")))
			},
		},
		{
			name: "sub-run: the details and the sub-run's event", role: "manager", lead: pathEnds("/sub-dag-runs/" + childRun), follow: events,
			read: func(ctx context.Context, a *Adapter) error { return ignore(a.GetRun(ctx, sub)) },
		},
		{
			name: "foreach items: the run's details and the summary", lead: foreachDetails, follow: summary,
			read: func(ctx context.Context, a *Adapter) error {
				return ignore(a.ListForeachItems(ctx, stepOf(runOf("foreach_job", foreachRun), "each"), model.ForeachQuery{}))
			},
		},
		{
			name: "foreach item: the run's details and the summary", lead: foreachDetails, follow: summary,
			read: func(ctx context.Context, a *Adapter) error { return ignore(a.GetForeachItem(ctx, item)) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: tt.role}, detect: true})
			p := newPairing(tt.lead, tt.follow)
			env.setIntercept(p.intercept)
			if err := tt.read(context.Background(), env.adapter); err != nil {
				t.Fatal(err)
			}
			if !p.held.Load() || !p.paired.Load() {
				t.Errorf("the calls were not in flight together (lead seen %v)", p.held.Load())
			}
		})
	}
}

// TestAttemptReadAheadIsCheckedAgainstTheRun: the event read sent with a
// "latest" or sub-run read selects by what the address names, so its
// answer counts only when it is exactly the resolved run's; otherwise the
// exact read follows and the attempt ID is the one a run read by its
// concrete ID gets.
func TestAttemptReadAheadIsCheckedAgainstTheRun(t *testing.T) {
	t.Parallel()
	env := newAdapterEnv(t, envOptions{fake: fakedagu.Options{Role: "manager"}, detect: true})
	ctx := context.Background()
	exact, err := env.adapter.GetRun(ctx, runOf("failing_job", failingRun))
	if err != nil || exact.AttemptID == "" {
		t.Fatalf("run by ID: attempt %q, error %v", exact.AttemptID, err)
	}
	tests := []struct {
		name string
		// loose answers the read ahead (no dagRunId in its query) in place
		// of the fake; "" lets the fake answer it.
		loose string
		// exactRead: the exact read (with dagRunId) must follow.
		exactRead bool
	}{
		{name: "the newest event is the run's"},
		{name: "the newest event is another run's", exactRead: true, loose: `{"entries":[{"kind":"dag_run","dagName":"failing_job","dagRunId":"older","attemptId":"att_other"}],"total":1}`},
		{name: "the DAG has no event", exactRead: true, loose: `{"entries":[],"total":0}`},
		{name: "the read ahead failed", exactRead: true, loose: "500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
				if tt.loose == "" || !strings.HasSuffix(r.URL.Path, "/event-logs") || r.URL.Query().Has("dagRunId") {
					return false
				}
				if tt.loose == "500" {
					return answerJSON(w, http.StatusInternalServerError, `{"code":"internal_error","message":"x"}`)
				}
				return answerJSON(w, http.StatusOK, tt.loose)
			})
			defer env.setIntercept(nil)
			var got *model.RunDetail
			calls := env.calls(func() { got, err = env.adapter.GetRun(ctx, runOf("failing_job", "latest")) })
			if err != nil {
				t.Fatal(err)
			}
			if got.AttemptID != exact.AttemptID {
				t.Errorf("attempt %q, want %q", got.AttemptID, exact.AttemptID)
			}
			exactSent := slices.ContainsFunc(calls, func(c string) bool { return strings.Contains(c, "/event-logs?") && strings.Contains(c, "dagRunId=") })
			if exactSent != tt.exactRead {
				t.Errorf("calls %q: exact event read sent %v, want %v", calls, exactSent, tt.exactRead)
			}
		})
	}
}
