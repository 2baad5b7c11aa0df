// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	tests := []struct {
		name         string
		lead, follow func(string) bool
		read         func(ctx context.Context, a *Adapter) error
	}{
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
			env := newAdapterEnv(t, envOptions{detect: true})
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
