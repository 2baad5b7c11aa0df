// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// DAG-run status numbers (internal/model/status.go) that end a run.
const (
	runFailed             = 2
	runAborted            = 3
	runSucceeded          = 4
	runPartiallySucceeded = 6
	runRejected           = 8
)

// finalRun reports whether a run's details can no longer change: its status
// is terminal (succeeded, failed, aborted, partially_succeeded, rejected)
// and Dagu will not retry it by itself (no automatic retry left). Running,
// queued, waiting and not-started runs are never final. An operator may
// still retry a finished run by hand under the same ID; the run cache's
// lifetime and its observations bound how long that goes unseen.
func finalRun(d *gen.DAGRunDetails) bool {
	if d == nil || d.DagRunId == "" {
		return false
	}
	switch d.Status {
	case runSucceeded:
		return true
	case runFailed, runAborted, runPartiallySucceeded, runRejected:
		return d.AutoRetryLimit == nil || d.AutoRetryCount >= *d.AutoRetryLimit
	}
	return false
}

// sameState reports whether two readings of one run show the same attempt
// in the same state.
func sameState(status int, startedAt, finishedAt string, retries int, d *gen.DAGRunDetails) bool {
	return status == d.Status && startedAt == d.StartedAt && finishedAt == d.FinishedAt && retries == d.AutoRetryCount
}

// noteRun records fresh details of the run t names: a root run's as
// noteRoot does; a sub-run's are stored when it and its root are final.
func (c *runCache) noteRun(ctx context.Context, t runTarget, d *gen.DAGRunDetails) {
	k := c.key(ctx, t.Ref)
	if !t.Ref.IsSub() {
		c.noteRoot(ctx, k, d)
		return
	}
	if finalTarget(t, d) {
		c.store.putDetails(ctx, k, d)
	}
}

// noteRoot records fresh details of a root run: stored entries of that run
// (and its sub-runs) are dropped when the run has changed since, and the
// details are stored when they are final.
func (c *runCache) noteRoot(ctx context.Context, k runKey, d *gen.DAGRunDetails) {
	if !c.store.enabled() {
		return
	}
	if old, ok := c.store.peekDetails(k); ok && !sameState(d.Status, d.StartedAt, d.FinishedAt, d.AutoRetryCount, old) {
		c.store.forget(k)
	}
	if finalRun(d) {
		c.store.putDetails(ctx, k, d)
	}
}

// noteSummaries drops the stored entries of every listed run whose list
// summary shows it changed (retried) since its details were stored.
func (c *runCache) noteSummaries(ctx context.Context, runs []gen.DAGRunSummary) {
	if !c.store.enabled() {
		return
	}
	fp := c.credential(ctx)
	for i := range runs {
		s := &runs[i]
		k := runKey{credential: fp, name: s.Name, rootID: s.DagRunId}
		if old, ok := c.store.peekDetails(k); ok && !sameState(s.Status, s.StartedAt, s.FinishedAt, s.AutoRetryCount, old) {
			c.store.forget(k)
		}
	}
}

// noteLatest observes the latest run a DAG read returned, like
// noteSummaries.
func (c *runCache) noteLatest(ctx context.Context, d *gen.DAGRunDetails) {
	if !c.store.enabled() || d.DagRunId == "" {
		return
	}
	k := runKey{credential: c.credential(ctx), name: d.Name, rootID: d.DagRunId}
	if old, ok := c.store.peekDetails(k); ok && !sameState(d.Status, d.StartedAt, d.FinishedAt, d.AutoRetryCount, old) {
		c.store.forget(k)
	}
}

// finalTarget reports whether the run t names is known to be final: its
// details (d) are final and, for a sub-run, so are its root's. A sub-run
// of a root that may still change (or is not known) is never cached: a
// retried root runs its sub-runs again under the same IDs.
func finalTarget(t runTarget, d *gen.DAGRunDetails) bool {
	if !t.Ref.IsSub() {
		return finalRun(d)
	}
	return finalRun(d) && finalRun(t.Root)
}
