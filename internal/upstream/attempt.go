// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// pendingAttempt is the event-log read behind a run's attempt ID: sent
// ahead, together with the read of the run's details, or made when get is
// called.
type pendingAttempt struct {
	// get returns the attempt ID of the run d.
	get  func(d *gen.DAGRunDetails) string
	drop func() // cancels a read sent ahead and waits for it to end
}

// attemptAhead sends the event-log read of a run's attempt ID together
// with the read of the run's details, when the details must be read and
// the attempt may be read, so the run read waits on one round trip. The
// read ahead can only select what the address names: a concrete root run
// by DAG name and run ID (the very read readAttemptID makes), a "latest"
// root by DAG name (the DAG's newest event), a sub-run by its run ID. Its
// event counts only when it is exactly the run's (attemptIn); otherwise
// the exact read follows, as it did before.
func (a *Adapter) attemptAhead(ctx context.Context, addr model.RunAddress) pendingAttempt {
	later := pendingAttempt{get: func(d *gen.DAGRunDetails) string { return a.readAttemptID(ctx, d) }, drop: func() {}}
	q, ok := a.aheadQuery(ctx, addr)
	if !ok || !a.mayReadAttempts(ctx) {
		return later
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var resp *gen.EventLogsResponse
	var err error
	go func() {
		defer close(done)
		resp, err = a.readNewestEvent(ctx, q)
	}()
	return pendingAttempt{
		get: func(d *gen.DAGRunDetails) string {
			<-done
			exact := q == eventQuery{name: d.Name, runID: d.DagRunId}
			if err != nil {
				if exact {
					a.log.Debug("reading the run's attempt ID from the event log failed", "error", err)
					return ""
				}
				return a.readAttemptID(ctx, d)
			}
			if id, found := attemptIn(resp, d); found || exact {
				return id
			}
			return a.readAttemptID(ctx, d)
		},
		drop: func() { cancel(); <-done },
	}
}

// aheadQuery is the event query a read ahead sends for addr; false when
// nothing should be sent ahead: the run's details are known without a
// call (a final run in the run cache, whose attempt the cache may hold
// too), or "latest" may be answered from the caches (see latestFromCaches).
func (a *Adapter) aheadQuery(ctx context.Context, addr model.RunAddress) (eventQuery, bool) {
	root := restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID}
	switch {
	case addr.DAGRunID == latestRunID && addr.SubRunID == "":
		return eventQuery{name: addr.Name}, !a.latestFromCaches()
	case addr.SubRunID != "":
		_, cached := a.runs.cached(ctx, restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID, SubRunID: addr.SubRunID})
		return eventQuery{runID: addr.SubRunID}, !cached
	}
	return eventQuery{name: addr.Name, runID: addr.DAGRunID}, !a.runs.has(ctx, root)
}
