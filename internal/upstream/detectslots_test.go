// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestDetectionsShareABound: adapters sharing one REST cap and a bound of
// detections, whose detections all block, have at most the bound in
// flight, and a read of an adapter already detected still gets a REST
// slot (unbounded, the blocked detections take every slot and waiting
// place, and the read is refused busy).
func TestDetectionsShareABound(t *testing.T) {
	t.Parallel()
	const instances, bound = 12, 2
	limits := restclient.NewLimits(restclient.Config{Concurrency: 4})
	slots := NewDetectionSlots(bound)
	gate := make(chan struct{})
	var inFlight, most atomic.Int32
	arrived := make(chan struct{}, instances)
	blockHealth := func(_ http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/health") {
			n := inFlight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			select {
			case arrived <- struct{}{}:
			default:
			}
			<-gate
			inFlight.Add(-1)
		}
		return false
	}
	shared := func(o *AdapterOptions) { o.Detections = slots }
	detected := newAdapterEnv(t, envOptions{detect: true, adapter: shared, limits: limits})
	ctx, cancel := context.WithCancel(context.Background())
	for range instances {
		env := newAdapterEnv(t, envOptions{adapter: shared, limits: limits})
		env.setIntercept(blockHealth)
		env.adapter.Start(ctx)
	}
	t.Cleanup(cancel) // first: the refresh loops end before their envs' cleanups wait for them
	for range bound {
		<-arrived
	}
	runs, err := detected.adapter.ListRuns(ctx, model.RunListQuery{Name: "failing_job"})
	close(gate)
	if err != nil {
		t.Fatalf("read of a detected instance during the detections: %v", err)
	}
	if len(runs.Items) == 0 {
		t.Error("no failing_job runs listed")
	}
	if m := most.Load(); m > bound {
		t.Errorf("%d detections in flight at once, want at most %d", m, bound)
	}
}
