// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"net/http"
	"sync"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// runCache is the run cache: a runSource around restRuns that answers from
// its store what a final run (see finalTarget) can no longer change and
// passes everything else to next. With the store disabled it only passes
// reads on. Every call goes down: the read plans ask it, it asks its
// store (local level, then the shared level) and next, never back.
//
// It caches parts of runs, not a port's answers: a run's details, attempt
// ID, stream presence and log windows, which several targets' reads share
// (a step_log read after a run read makes only the stream call; a run_logs
// read in another window reuses the probes). Cached per port answer, each
// of those reads would ask Dagu again, so the read plans ask runCache for
// the parts; what one read already holds (runTarget) is the read's memo,
// not this cache.
type runCache struct {
	next  runSource
	store runStore
	// credential names the credential the request in ctx reads Dagu with
	// (restclient.Client.Fingerprint): part of every key.
	credential func(context.Context) string
}

// enabled reports whether the run cache keeps anything.
func (c *runCache) enabled() bool { return c.store.enabled() }

// stats reports the local store's counters (zero when disabled).
func (c *runCache) stats() cache.Stats {
	if c.store.c == nil {
		return cache.Stats{}
	}
	return c.store.c.Stats()
}

// key is the store key of a run reference for the credential the request
// in ctx is sent with (the caller's own in passthrough mode).
func (c *runCache) key(ctx context.Context, ref restclient.RunRef) runKey {
	return runKey{credential: c.credential(ctx), name: ref.Name, rootID: ref.RunID, subID: ref.SubRunID}
}

// cached returns a run's details when the store holds them (the run is
// final), without reading anything.
func (c *runCache) cached(ctx context.Context, ref restclient.RunRef) (*gen.DAGRunDetails, bool) {
	return c.store.details(ctx, c.key(ctx, ref))
}

// details answers from the store, or reads (through the shared level,
// which coalesces reads of a final run across replicas) and notes the run
// (noteRun).
func (c *runCache) details(ctx context.Context, t runTarget) (*gen.DAGRunDetails, error) {
	if d, ok := c.cached(ctx, t.Ref); ok {
		return d, nil
	}
	k := runCacheKey{run: c.key(ctx, t.Ref), part: partDetails}
	d, err := loadRunPart(ctx, c.store, k, func(ctx context.Context) (*gen.DAGRunDetails, bool, error) {
		d, err := c.next.details(ctx, t)
		return d, err == nil && finalTarget(t, d), err
	})
	if err == nil {
		c.noteRun(ctx, t, d)
	}
	c.refusedCached(ctx, k.run, err)
	return d, err
}

// refusedCached drops every cached answer of the credential when Dagu
// refuses (403) or does not find (404) a run the store holds for it
// (narrowsGrant, the failure table's word): what it may see has narrowed
// (grantBook.distrust). A 404 of a sub-run or a step's stream is not one:
// a run's parts may be missing on their own.
func (c *runCache) refusedCached(ctx context.Context, run runKey, err error) {
	if !narrowsGrant(err) {
		return
	}
	if _, held := c.store.peekDetails(run.root()); held {
		c.store.grants.distrust(ctx, run.credential)
	}
}

// latest is never answered from the store, but the concrete run it names
// is noted.
func (c *runCache) latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
	d, err := c.next.latest(ctx, name)
	if err == nil && d.DagRunId != "" {
		c.noteRoot(ctx, c.key(ctx, restclient.RunRef{Name: name, RunID: d.DagRunId}), d)
	}
	return d, err
}

// stepLog answers each stream window of a final run from the store and
// reads only the ones it lacks. When the store could keep them but the
// run's state is not known yet, the run's details are read alongside the
// streams (one more call in the same round trip), so that the next read is
// served from the store and a 404 needs no follow-up call; t comes back
// holding those details (or their failure).
func (c *runCache) stepLog(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
	d, known := c.knownDetails(ctx, &t)
	switch {
	case !known && c.store.enabled() && (!t.Ref.IsSub() || finalRun(t.Root)) && c.coalescing():
		return c.stepLogAfterDetails(ctx, t, step, streams, w)
	case !known && c.store.enabled() && (!t.Ref.IsSub() || finalRun(t.Root)):
		return c.stepLogWithDetails(ctx, t, step, streams, w)
	case !known || !finalTarget(t, d):
		return c.next.stepLog(ctx, t, step, streams, w)
	}
	return t, c.storedStreams(ctx, t, step, streams, w)
}

// knownDetails returns the details of the run t names when the read
// already has them: the root's from resolving, a sub-run's from the store
// (then kept in t).
func (c *runCache) knownDetails(ctx context.Context, t *runTarget) (*gen.DAGRunDetails, bool) {
	if !t.Ref.IsSub() {
		return t.Root, t.Root != nil
	}
	d, ok := c.cached(ctx, t.Ref)
	if ok {
		t.Fetched = d
	}
	return d, ok
}

// stepLogWithDetails reads the streams and the run's details concurrently
// and stores the streams' outcomes when the run turns out final.
func (c *runCache) stepLogWithDetails(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
	var d *gen.DAGRunDetails
	var err error
	var wg sync.WaitGroup
	read := t
	wg.Go(func() { d, err = c.next.details(ctx, read) })
	_, reads := c.next.stepLog(ctx, t, step, streams, w)
	wg.Wait()
	if err != nil {
		t.FetchErr = err
		return t, reads
	}
	c.noteRun(ctx, t, d)
	if t.Ref.IsSub() {
		t.Fetched = d
	} else {
		t.Root = d
	}
	if finalTarget(t, d) {
		for _, r := range reads {
			c.storeStream(ctx, step, w, r)
		}
	}
	return t, reads
}

// stepLogAfterDetails reads the run's details first, coalesced across
// replicas, and then the streams: through the store (and so coalesced too)
// when the run is final. The shared level keys a run's log windows by its
// state, so while it is up this read learns the state before the streams.
func (c *runCache) stepLogAfterDetails(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (runTarget, []streamRead) {
	d, err := c.details(ctx, t)
	if err != nil {
		t.FetchErr = err
		_, reads := c.next.stepLog(ctx, t, step, streams, w)
		return t, reads
	}
	if t.Ref.IsSub() {
		t.Fetched = d
	} else {
		t.Root = d
	}
	if !finalTarget(t, d) {
		_, reads := c.next.stepLog(ctx, t, step, streams, w)
		return t, reads
	}
	return t, c.storedStreams(ctx, t, step, streams, w)
}

// storedStreams answers each stream from the store, reads the others and
// stores their outcomes. The run must be final.
func (c *runCache) storedStreams(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) []streamRead {
	reads := make([]streamRead, len(streams))
	var missing []gen.LogStream
	var at []int
	for i, s := range streams {
		if r, ok := c.store.stream(ctx, c.streamKey(ctx, step, s, w)); ok {
			reads[i] = r
			continue
		}
		missing, at = append(missing, s), append(at, i)
	}
	if len(missing) == 0 {
		return reads
	}
	fresh := c.readStreams(ctx, t, step, missing, w)
	for j, r := range fresh {
		reads[at[j]] = r
		c.storeStream(ctx, step, w, r)
	}
	return reads
}

// readStreams reads stream windows of a final run the store lacks. While
// the shared level is up, each stream is read through it, so replicas that
// miss the same window at once make one call; otherwise they are read
// together, as without the shared level.
func (c *runCache) readStreams(ctx context.Context, t runTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) []streamRead {
	if !c.store.shared.up() {
		_, reads := c.next.stepLog(ctx, t, step, streams, w)
		return reads
	}
	reads := make([]streamRead, len(streams))
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Go(func() {
			l, err := loadRunPart(ctx, c.store, c.streamKey(ctx, step, s, w), func(ctx context.Context) (*gen.Log, bool, error) {
				_, r := c.next.stepLog(ctx, t, step, []gen.LogStream{s}, w)
				return r[0].Log, r[0].Err == nil && r[0].Log != nil, r[0].Err
			})
			reads[i] = streamRead{Stream: s, Log: l, Err: err}
		})
	}
	wg.Wait()
	return reads
}

// storeStream keeps a stream's outcome when it is final: a window, or the
// handler's 404 saying the file does not exist. Any other failure, and a
// route the server lacks, is never stored.
func (c *runCache) storeStream(ctx context.Context, step restclient.StepRef, w restclient.LogWindow, r streamRead) {
	if r.Err != nil && (!isHTTP(r.Err, http.StatusNotFound) || restclient.IsRouteMissing(r.Err)) {
		return
	}
	c.store.putStream(ctx, c.streamKey(ctx, step, r.Stream, w), r)
}

// streamKey is the store key of one stream window of a step.
func (c *runCache) streamKey(ctx context.Context, step restclient.StepRef, s gen.LogStream, w restclient.LogWindow) runCacheKey {
	return runCacheKey{run: c.key(ctx, step.Run), part: partStepLog, step: step.Step, item: step.Item,
		bodyStep: step.BodyStep, stream: s, window: w}
}

// The run_logs read and the attempt ID gather their parts with concurrent
// calls of their own (runlogs.go, run.go); they keep a final run's parts
// through these methods, so the store is still reached only through this
// layer.

// has reports whether the store holds the run's details (it is final),
// without counting a lookup.
func (c *runCache) has(ctx context.Context, ref restclient.RunRef) bool {
	return c.store.has(ctx, c.key(ctx, ref))
}

// storedSchedulerLog returns a final run's stored scheduler-log window.
func (c *runCache) storedSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow) (*gen.Log, bool) {
	return c.store.schedulerLog(ctx, c.key(ctx, ref), w)
}

// storedPresence returns a final run's stored stream presence.
func (c *runCache) storedPresence(ctx context.Context, ref restclient.RunRef) (map[string]mapping.StreamPresence, bool) {
	return c.store.presence(ctx, c.key(ctx, ref))
}

// coalescing reports whether finished-run log reads coalesce across
// replicas (the shared level is up), so a read should learn the run's
// state before reading its logs.
func (c *runCache) coalescing() bool { return c.store.shared.up() }

// loadSchedulerLog reads a final run's scheduler-log window through the
// shared level (loadRunPart).
func (c *runCache) loadSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow, read func(context.Context) (*gen.Log, error)) (*gen.Log, error) {
	k := runCacheKey{run: c.key(ctx, ref), part: partSchedulerLog, window: w}
	return loadRunPart(ctx, c.store, k, func(ctx context.Context) (*gen.Log, bool, error) {
		l, err := read(ctx)
		return l, err == nil && l != nil, err
	})
}

// loadPresence reads a final run's stream presence through the shared
// level (loadRunPart).
func (c *runCache) loadPresence(ctx context.Context, ref restclient.RunRef, read func(context.Context) (map[string]mapping.StreamPresence, error)) (map[string]mapping.StreamPresence, error) {
	k := runCacheKey{run: c.key(ctx, ref), part: partPresence}
	return loadRunPart(ctx, c.store, k, func(ctx context.Context) (map[string]mapping.StreamPresence, bool, error) {
		p, err := read(ctx)
		return p, err == nil && p != nil, err
	})
}

// keepSchedulerLog stores a final run's scheduler-log window.
func (c *runCache) keepSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow, l *gen.Log) {
	c.store.putSchedulerLog(ctx, c.key(ctx, ref), w, l)
}

// keepPresence stores a final run's stream presence.
func (c *runCache) keepPresence(ctx context.Context, ref restclient.RunRef, p map[string]mapping.StreamPresence) {
	c.store.putPresence(ctx, c.key(ctx, ref), p)
}

// attempt returns the attempt ID of the run t names: a final run's from the
// store, else read, and kept when the run is final and the ID was found
// (an empty answer may be an event log that lags, so it is read again).
func (c *runCache) attempt(ctx context.Context, t runTarget, d *gen.DAGRunDetails, read func() string) string {
	final := finalTarget(t, d)
	k := c.key(ctx, t.Ref)
	if final {
		if id, ok := c.store.attempt(ctx, k); ok {
			return id
		}
	}
	id := read()
	if final && id != "" {
		c.store.putAttempt(ctx, k, id)
	}
	return id
}
