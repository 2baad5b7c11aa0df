// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// RunAddressForURIs is where a run lives in dagu:// URIs: the root run it
// belongs to and, for a sub-run, the sub-run's ID under that root. Every
// ID must be resolved: never "latest".
type RunAddressForURIs struct {
	RootName string
	RootID   string
	SubRunID string
}

// isSubRun reports whether the address names a sub-run.
func (a RunAddressForURIs) isSubRun() bool { return a.SubRunID != "" }

// RunDetail maps GET /dag-runs/{name}/{dagRunId} or its sub-dag-runs form.
// Name and ID are the ones Dagu resolved (for a sub-run, the child's own
// DAG name); the URIs are root-addressed from addr, and only a root run
// gets a logs URI. Steps come in execution order (see runSteps); handler
// steps go to Handlers. A sub-run names its root and its parent run.
// AttemptID stays empty: these routes do not report it.
func RunDetail(d *gen.DAGRunDetails, addr RunAddressForURIs) model.RunDetail {
	if d == nil {
		return model.RunDetail{Steps: []model.RunStep{}}
	}
	out := model.RunDetail{
		Name:                   d.Name,
		DAGRunID:               d.DagRunId,
		URI:                    model.RunURI(addr.RootName, addr.RootID, addr.SubRunID),
		Status:                 d.Status,
		StatusLabel:            runLabel(d.Status, d.StatusLabel),
		StartedAt:              Time(d.StartedAt),
		FinishedAt:             Time(d.FinishedAt),
		QueuedAt:               timePtr(d.QueuedAt),
		Steps:                  runSteps(d.Nodes, addr),
		HumanTaskResumePending: boolOf(d.HumanTaskResumePending),
		Params:                 str(d.Params),
		Labels:                 labelsOr(d.Labels, d.Tags),
		TriggerType:            str(d.TriggerType),
		AutoRetryCount:         d.AutoRetryCount,
		Handlers:               handlers(d, addr),
	}
	if !addr.isSubRun() {
		out.LogsURI = model.RunLogsURI(addr.RootName, addr.RootID)
		return out
	}
	out.RootRun = rootRef(d, addr)
	out.ParentRun = parentRef(d, out.RootRun)
	return out
}

// rootRef names the root of a sub-run, preferring what Dagu reported and
// falling back to the address the caller used.
func rootRef(d *gen.DAGRunDetails, addr RunAddressForURIs) *model.RunRef {
	name, id := d.RootDAGRunName, d.RootDAGRunId
	if name == "" || id == "" {
		name, id = addr.RootName, addr.RootID
	}
	return &model.RunRef{Name: name, DAGRunID: id, URI: model.RunURI(name, id, "")}
}

// parentRef names the run that started a sub-run. Its URI is
// root-addressed: the root's own URI when the parent is the root, else the
// parent's sub-run URI under the root. nil when Dagu reported no parent.
func parentRef(d *gen.DAGRunDetails, root *model.RunRef) *model.RunRef {
	name, id := str(d.ParentDAGRunName), str(d.ParentDAGRunId)
	if id == "" {
		return nil
	}
	ref := &model.RunRef{Name: name, DAGRunID: id, URI: root.URI}
	if id != root.DAGRunID {
		ref.URI = model.RunURI(root.Name, root.DAGRunID, id)
	}
	return ref
}
