// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/readcache"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// streamRead is the outcome of reading one stream of a step log.
type streamRead = readcache.StreamRead

// restRuns is the uncached readcache.RunSource: one REST call per part.
// Reads reach it only through the run cache (Adapter.runs).
type restRuns struct {
	client *restclient.Client
	// apiBase is the REST base of the last capability detection (or the
	// current release's), which decides how "latest" is resolved.
	apiBase func() restclient.APIBase
}

func (r restRuns) Details(ctx context.Context, t runTarget) (*gen.DAGRunDetails, error) {
	return r.client.GetRun(ctx, t.Ref)
}

// Latest reads the latest alias (1 call). Dagu 1.x (the /api/v2 releases)
// may not know the alias (1.17 answers 404 for it), so there a 404 is
// followed by the DAG's run list, newest first, and the details of its
// first run (2 more calls); when the list is empty the alias's 404 stands.
func (r restRuns) Latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
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

func (r restRuns) StepLog(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
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
