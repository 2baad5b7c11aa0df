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
// call, sent together with the run's details: see attemptAhead); otherwise,
// or when that read fails, it stays empty. A final run (see finalRun) is
// answered from the run cache with no call at all, except the one that
// resolves "latest".
func (a *Adapter) getRun(ctx context.Context, addr model.RunAddress) (*model.RunDetail, error) {
	ahead := a.attemptAhead(ctx, addr)
	defer ahead.drop()
	d, t, err := a.runForDetail(ctx, addr)
	if err != nil {
		return nil, err
	}
	out := mapping.RunDetail(d, mapping.RunAddressForURIs{RootName: addr.Name, RootID: t.Ref.RunID, SubRunID: addr.SubRunID})
	out.AttemptID = a.attemptID(ctx, t, d, ahead)
	out.Final = finalTarget(t, d)
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
		return d, runTarget{Ref: restclient.RunRef{Name: addr.Name, RunID: d.DagRunId}, Root: d}, nil
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
// cache once found (see runCache.attempt).
func (a *Adapter) attemptID(ctx context.Context, t runTarget, d *gen.DAGRunDetails, ahead pendingAttempt) string {
	if !a.mayReadAttempts(ctx) {
		return ""
	}
	return a.runs.attempt(ctx, t, d, func() string { return ahead.get(d) })
}

// mayReadAttempts reports whether the last capability detection found the
// event log and the key's role may read it.
func (a *Adapter) mayReadAttempts(ctx context.Context) bool {
	caps, ok := a.Capabilities()
	return ok && caps.EventLogs && a.eventLogAccess(ctx)
}

// readAttemptID reads the attempt from the event log (1 call); a failed
// read is "". Events carry the run's own name and ID (a sub-run's are its
// own), and only an entry for exactly this run counts: an attempt ID is
// never guessed.
func (a *Adapter) readAttemptID(ctx context.Context, d *gen.DAGRunDetails) string {
	id, _ := a.attemptOf(ctx, eventQuery{name: d.Name, runID: d.DagRunId}, d)
	return id
}

// eventQuery selects the newest dag_run event of a DAG, of a run ID, or of
// both ("" leaves a field out).
type eventQuery struct{ name, runID string }

// attemptOf reads the newest event the query selects and returns its
// attempt ID when the event is exactly the run d's; found is false when
// the read failed or the event is another run's (or there is none).
func (a *Adapter) attemptOf(ctx context.Context, q eventQuery, d *gen.DAGRunDetails) (id string, found bool) {
	resp, err := a.readNewestEvent(ctx, q)
	if err != nil {
		a.log.Debug("reading the run's attempt ID from the event log failed", "error", err)
		return "", false
	}
	return attemptIn(resp, d)
}

// readNewestEvent reads the newest dag_run event the query selects (1 call).
func (a *Adapter) readNewestEvent(ctx context.Context, q eventQuery) (*gen.EventLogsResponse, error) {
	one := 1
	kind := eventKindDAGRun
	p := gen.ListEventLogsParams{Kind: &kind, Limit: &one}
	if q.name != "" {
		p.DagName = &q.name
	}
	if q.runID != "" {
		p.DagRunId = &q.runID
	}
	return a.client.ListEventLogs(ctx, p)
}

// attemptIn returns the attempt ID of the answer's first event when that
// event is exactly the run d's.
func attemptIn(resp *gen.EventLogsResponse, d *gen.DAGRunDetails) (string, bool) {
	if len(resp.Entries) == 0 {
		return "", false
	}
	e := resp.Entries[0]
	if deref(e.DagRunId) != d.DagRunId || deref(e.DagName) != d.Name {
		return "", false
	}
	return deref(e.AttemptId), true
}
