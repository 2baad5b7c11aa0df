// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// runSource reads the parts of a run the run cache may keep: restRuns
// reads them from Dagu, and runCache is the cache around it. Which REST
// route reads a part (root run, sub-run, foreach body step) is decided
// by restclient (RunRoutes, StepLogRoute).
type runSource interface {
	// details reads the details of the run t names, root or sub-run.
	details(ctx context.Context, t runTarget) (*gen.DAGRunDetails, error)
	// latest reads a DAG's most recent run.
	latest(ctx context.Context, name string) (*gen.DAGRunDetails, error)
	// stepLog reads one window of each stream of a step, concurrently,
	// keeping each outcome. t holds what this read knows of the run; a
	// source may return it with more (details it read alongside).
	stepLog(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead)
}

// runTarget is a run address whose root run ID is concrete, with what one
// read already knows of the run. Root and Fetched are a read's memo, not
// a cache: they live as long as the read and save it asking twice for
// details it has.
type runTarget struct {
	Ref restclient.RunRef
	// Root holds the root run's details when the read has them (read
	// while resolving "latest", or cached); nil otherwise.
	Root *gen.DAGRunDetails
	// Fetched and FetchErr hold the outcome of a read of the target run's
	// own details made alongside other calls; both nil when none was
	// made. A root run's details also go to Root.
	Fetched  *gen.DAGRunDetails
	FetchErr error
}

// streamRead is the outcome of reading one stream of a step log: its
// window, or the failure.
type streamRead struct {
	Stream gen.LogStream
	Log    *gen.Log
	Err    error
}

// restRuns is the uncached runSource: one REST call per part. Reads reach
// it only through the run cache (Adapter.runs).
type restRuns struct {
	client *restclient.Client
	// apiBase is the REST base of the last capability detection (or the
	// current release's), which decides how "latest" is resolved.
	apiBase func() restclient.APIBase
}

func (r restRuns) details(ctx context.Context, t runTarget) (*gen.DAGRunDetails, error) {
	return r.client.GetRun(ctx, t.Ref)
}

// latest reads the latest alias (1 call). Dagu 1.x (the /api/v2 releases)
// may not know the alias (1.17 answers 404 for it), so there a 404 is
// followed by the DAG's run list, newest first, and the details of its
// first run (2 more calls); when the list is empty the alias's 404 stands.
func (r restRuns) latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
	d, err := r.client.GetRun(ctx, restclient.RunRef{Name: name, RunID: latestRunID})
	if err == nil || !isHTTP(err, http.StatusNotFound) || r.apiBase() != restclient.APIv2 {
		return d, err
	}
	var all int64
	list, lerr := r.client.ListRunsByName(ctx, name, gen.ListDAGRunsByNameParams{FromDate: &all})
	if lerr != nil || len(list.DagRuns) == 0 {
		return nil, err
	}
	return r.client.GetRun(ctx, restclient.RunRef{Name: name, RunID: list.DagRuns[0].DagRunId})
}

func (r restRuns) stepLog(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
	reads := make([]streamRead, len(streams))
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Go(func() {
			l, err := r.client.GetStepLog(ctx, step, s, w)
			reads[i] = streamRead{Stream: s, Log: l, Err: err}
		})
	}
	wg.Wait()
	return t, reads
}
