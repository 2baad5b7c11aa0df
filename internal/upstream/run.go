// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// eventKindDAGRun is the event-log kind of run lifecycle events.
const eventKindDAGRun = "dag_run"

// getRun reads a root run (1 call; Dagu resolves "latest" itself) or a
// sub-run (1 call, plus 1 to resolve a "latest" root). URIs use the
// resolved root ID. The attempt ID is added only when the last capability
// detection found the event log and the key's role may read it (1 more
// call); otherwise, or when that read fails, it stays empty. A final run
// (see finalRun) is answered from the run cache with no call at all, except
// the one that resolves "latest".
func (a *Adapter) getRun(ctx context.Context, addr model.RunAddress) (*model.RunDetail, error) {
	d, t, err := a.runForDetail(ctx, addr)
	if err != nil {
		return nil, err
	}
	out := mapping.RunDetail(d, mapping.RunAddressForURIs{RootName: addr.Name, RootID: t.ref.RunID, SubRunID: addr.SubRunID})
	out.AttemptID = a.attemptID(ctx, t, d)
	return &out, nil
}

// runForDetail reads the run's details and returns them with the run's
// target, whose root run ID is concrete.
func (a *Adapter) runForDetail(ctx context.Context, addr model.RunAddress) (*gen.DAGRunDetails, runTarget, error) {
	if addr.SubRunID == "" {
		d, err := a.rootDetails(ctx, addr.Name, addr.DAGRunID)
		if err != nil {
			return nil, runTarget{}, blame(err, model.FieldDAGRunID, http.StatusNotFound)
		}
		return d, runTarget{ref: restclient.RunRef{Name: addr.Name, RunID: d.DagRunId}, root: d}, nil
	}
	t, err := a.resolveRun(ctx, addr)
	if err != nil {
		return nil, runTarget{}, err
	}
	d, err := a.runDetails(ctx, t)
	if err != nil {
		return nil, runTarget{}, err
	}
	return d, t, nil
}

// attemptID looks the run's current attempt up in the event log, when that
// is possible and allowed; the attempt of a final run is kept in the run
// cache once found (see cachedRuns.attempt).
func (a *Adapter) attemptID(ctx context.Context, t runTarget, d *gen.DAGRunDetails) string {
	caps, ok := a.Capabilities()
	if !ok || !caps.EventLogs || !a.eventLogAccess(ctx) {
		return ""
	}
	return a.runs.attempt(ctx, t, d, func() string { return a.readAttemptID(ctx, d) })
}

// readAttemptID reads the attempt from the event log (1 call); a failed
// read is "". Events carry the run's own name and ID (a sub-run's are its
// own), and only an entry for exactly this run counts: an attempt ID is
// never guessed.
func (a *Adapter) readAttemptID(ctx context.Context, d *gen.DAGRunDetails) string {
	one := 1
	kind := eventKindDAGRun
	resp, err := a.client.ListEventLogs(ctx, gen.ListEventLogsParams{Kind: &kind, DagName: &d.Name, DagRunId: &d.DagRunId, Limit: &one})
	if err != nil {
		a.log.Debug("reading the run's attempt ID from the event log failed", "error", err)
		return ""
	}
	if len(resp.Entries) == 0 {
		return ""
	}
	e := resp.Entries[0]
	if deref(e.DagRunId) != d.DagRunId || deref(e.DagName) != d.Name {
		return ""
	}
	return deref(e.AttemptId)
}
