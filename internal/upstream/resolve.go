// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// latestRunID is the run ID that names a DAG's most recent run. Only the
// run details route understands it; every other call needs the real ID.
const latestRunID = model.LatestRun

// executorForeach is the executor type Dagu gives a foreach step.
const executorForeach = "foreach"

// runURIs is where the run lives in dagu:// URIs.
func runURIs(t runTarget) mapping.RunAddressForURIs {
	return mapping.RunAddressForURIs{RootName: t.Ref.Name, RootID: t.Ref.RunID, SubRunID: t.Ref.SubRunID}
}

// resolveRun makes the root run ID concrete: "latest" costs one call to
// the root's details (a 404 blames dagRunId); any other ID costs nothing,
// and brings the root's details along when the run cache has them.
func (a *Adapter) resolveRun(ctx context.Context, addr model.RunAddress) (runTarget, error) {
	ref := restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID, SubRunID: addr.SubRunID}
	if addr.SubRunID != "" && !hasSubRunRoutes(a.capsOrCurrent()) {
		return runTarget{}, unsupported(a.client.RunRoutes(ref).Details, model.ReasonNoSubRuns, nil)
	}
	if addr.DAGRunID != latestRunID {
		t := runTarget{Ref: ref}
		t.Root, _ = a.runs.cached(ctx, restclient.RunRef{Name: addr.Name, RunID: addr.DAGRunID})
		return t, nil
	}
	d, err := a.latest(ctx, addr.Name)
	if err != nil {
		return runTarget{}, blame(err, model.FieldDAGRunID, http.StatusNotFound)
	}
	ref.RunID = d.DagRunId
	return runTarget{Ref: ref, Root: d}, nil
}

// rootDetails reads a root run's details, resolving latest; a concrete
// run ID is answered from the run cache when it holds the run.
func (a *Adapter) rootDetails(ctx context.Context, name, runID string) (*gen.DAGRunDetails, error) {
	if runID == latestRunID {
		return a.latest(ctx, name)
	}
	return a.runs.details(ctx, runTarget{Ref: restclient.RunRef{Name: name, RunID: runID}})
}

// runDetails returns the details of the run t names, root or sub-run,
// reusing what the read already has (the root's details from resolving,
// details read alongside) before asking the run cache layer. A 404 blames
// the ID that names nothing (see missingRun).
func (a *Adapter) runDetails(ctx context.Context, t runTarget) (*gen.DAGRunDetails, error) {
	switch {
	case !t.Ref.IsSub() && t.Root != nil:
		return t.Root, nil
	case t.Fetched != nil:
		return t.Fetched, nil
	case t.FetchErr != nil:
		return nil, a.missingRun(ctx, t, t.FetchErr)
	}
	d, err := a.runs.details(ctx, t)
	if err != nil {
		return nil, a.missingRun(ctx, t, err)
	}
	return d, nil
}

// missingRun tags a run lookup's 404 with the ID at fault. Dagu answers a
// sub-run read with the same 404 whether the root or the sub-run is
// missing, so unless the root is known to exist one root read tells them
// apart (no message text is inspected).
func (a *Adapter) missingRun(ctx context.Context, t runTarget, err error) error {
	switch {
	case !isHTTP(err, http.StatusNotFound):
		return err
	case !t.Ref.IsSub():
		return withField(err, model.FieldDAGRunID)
	case t.Root != nil:
		return withField(err, model.FieldSubRunID)
	}
	_, rootErr := a.runs.details(ctx, runTarget{Ref: restclient.RunRef{Name: t.Ref.Name, RunID: t.Ref.RunID}})
	switch {
	case rootErr == nil:
		return withField(err, model.FieldSubRunID)
	case isHTTP(rootErr, http.StatusNotFound):
		return withField(rootErr, model.FieldDAGRunID)
	}
	return rootErr
}

// stepNode returns the run's step of that name, lifecycle handlers
// included, or nil.
func stepNode(d *gen.DAGRunDetails, step string) *gen.Node {
	for i := range d.Nodes {
		if d.Nodes[i].Step.Name == step {
			return &d.Nodes[i]
		}
	}
	for _, h := range []*gen.Node{d.OnInit, d.OnWait, d.OnSuccess, d.OnFailure, d.OnAbort, d.OnExit} {
		if h != nil && h.Step.Name == step {
			return h
		}
	}
	return nil
}

// isForeach reports whether a step is a foreach step.
func isForeach(n *gen.Node) bool {
	cfg := n.Step.ExecutorConfig
	return cfg != nil && cfg.Type != nil && *cfg.Type == executorForeach
}
