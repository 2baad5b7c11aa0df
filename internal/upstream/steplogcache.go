// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// streamReader reads one stream of the step a step_log read addresses.
type streamReader func(ctx context.Context, s gen.LogStream) (*gen.Log, error)

// readStepStreams reads the step's streams. When the run is known to be
// final (see finalTarget) each stream's outcome for this exact window
// comes from the run cache, and only the streams it lacks are read. When
// the run cache could keep them but the run's state is not known yet, the
// run's details are read alongside the streams (one more call in the same
// round trip), so that the next read is served from the cache and a 404
// needs no follow-up call; t comes back holding those details.
func (a *Adapter) readStepStreams(ctx context.Context, t runTarget, addr model.StepAddress, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
	read := a.stepStreamReader(t, addr, w)
	d, known := a.knownDetails(ctx, &t)
	switch {
	case !known && a.runs.enabled() && (!t.ref.IsSub() || finalRun(t.root)):
		return a.readWithDetails(ctx, t, addr, streams, w, read)
	case !known || !finalTarget(t, d):
		return t, readStreams(ctx, streams, read)
	}
	return t, a.cachedStreams(ctx, a.runKeyOf(ctx, t.ref), addr, streams, w, read)
}

// stepStreamReader reads a step's (or foreach body step's) stream window.
func (a *Adapter) stepStreamReader(t runTarget, addr model.StepAddress, w restclient.LogWindow) streamReader {
	return func(ctx context.Context, s gen.LogStream) (*gen.Log, error) {
		if addr.Item != "" || addr.BodyStepName != "" {
			return a.client.GetForeachBodyStepLog(ctx, t.ref, addr.StepName, addr.Item, addr.BodyStepName, s, w)
		}
		return a.client.GetStepLog(ctx, t.ref, addr.StepName, s, w)
	}
}

// knownDetails returns the details of the run t names when the adapter
// already has them: the root's from resolving or the cache, a sub-run's
// from the cache (then kept in t).
func (a *Adapter) knownDetails(ctx context.Context, t *runTarget) (*gen.DAGRunDetails, bool) {
	if !t.ref.IsSub() {
		return t.root, t.root != nil
	}
	d, ok := a.runs.details(a.runKeyOf(ctx, t.ref))
	if ok {
		t.fetched = d
	}
	return d, ok
}

// readWithDetails reads the streams and the run's details concurrently,
// keeps the details (or their failure) in t for a follow-up, and stores
// the streams' outcomes when the run turns out final.
func (a *Adapter) readWithDetails(ctx context.Context, t runTarget, addr model.StepAddress, streams []gen.LogStream, w restclient.LogWindow, read streamReader) (runTarget, []streamRead) {
	var d *gen.DAGRunDetails
	var err error
	var wg sync.WaitGroup
	wg.Go(func() { d, err = a.client.GetRun(ctx, t.ref) })
	reads := readStreams(ctx, streams, read)
	wg.Wait()
	if err != nil {
		t.fetchErr = err
		return t, reads
	}
	a.noteRun(ctx, t, d)
	if t.ref.IsSub() {
		t.fetched = d
	} else {
		t.root = d
	}
	if finalTarget(t, d) {
		k := a.runKeyOf(ctx, t.ref)
		for _, r := range reads {
			a.storeStream(k, addr, w, r)
		}
	}
	return t, reads
}

// cachedStreams answers each stream from the run cache, reads the others
// concurrently and stores their outcomes. The run must be final.
func (a *Adapter) cachedStreams(ctx context.Context, k runKey, addr model.StepAddress, streams []gen.LogStream, w restclient.LogWindow, read streamReader) []streamRead {
	reads := make([]streamRead, len(streams))
	var missing []gen.LogStream
	var at []int
	for i, s := range streams {
		if o, ok := a.runs.stream(streamKey(k, addr, s, w)); ok {
			reads[i] = streamRead{stream: s, log: o.log, err: o.err}
			continue
		}
		missing, at = append(missing, s), append(at, i)
	}
	for j, r := range readStreams(ctx, missing, read) {
		reads[at[j]] = r
		a.storeStream(k, addr, w, r)
	}
	return reads
}

// storeStream keeps a stream's outcome when it is final: a window, or the
// handler's 404 saying the file does not exist. Any other failure, and a
// route the server lacks, is never stored.
func (a *Adapter) storeStream(k runKey, addr model.StepAddress, w restclient.LogWindow, r streamRead) {
	if r.err != nil && (!isHTTP(r.err, http.StatusNotFound) || restclient.IsRouteMissing(r.err)) {
		return
	}
	a.runs.put(streamKey(k, addr, r.stream, w), streamOutcome{log: r.log, err: r.err})
}

// streamKey is the run-cache key of one stream window of a step.
func streamKey(k runKey, addr model.StepAddress, s gen.LogStream, w restclient.LogWindow) runCacheKey {
	return runCacheKey{run: k, part: partStepLog, step: addr.StepName, item: addr.Item, bodyStep: addr.BodyStepName, stream: s, window: w}
}
