// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Runs is the run cache: a RunSource that answers from its store what a
// final run (see FinalTarget) can no longer change and passes everything
// else to next. With the store disabled it only passes reads on.
//
// It caches parts of runs, not a port's answers: a run's details, attempt
// ID, stream presence and log windows, which several targets' reads share
// (a step_log read after a run read makes only the stream call; a run_logs
// read in another window reuses the probes). Cached per port answer, each
// of those reads would ask Dagu again, so package upstream's call plans ask
// Runs for the parts; what one read already holds (RunTarget) is the
// read's memo, not this cache.
type Runs struct {
	next        RunSource
	store       runStore
	fingerprint func(context.Context) string
}

// RunsOptions configures Runs.
type RunsOptions struct {
	// Bytes bounds the memory of the run cache; zero or a negative value
	// disables it.
	Bytes int64
	// TTL is how long an entry lives.
	TTL time.Duration
	// Shared, when set, is the second level behind the local store.
	Shared *Shared
	// Fingerprint names the credential the request in ctx reads Dagu with;
	// required.
	Fingerprint func(ctx context.Context) string
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Registerer, when set, receives the cache's metrics.
	Registerer prometheus.Registerer
	// Stores, when set, are the process's stores (the cache's own when
	// nil; Bytes is then theirs), whose keys Scope, one Dagu server's,
	// makes this cache's.
	Stores *Stores
	Scope  string
}

// NewRuns builds the run cache around next.
func NewRuns(next RunSource, o RunsOptions) (*Runs, error) {
	if next == nil || o.Fingerprint == nil {
		return nil, errors.New("run cache: the source and Fingerprint are required")
	}
	store, err := newRunStore(o)
	if err != nil {
		return nil, err
	}
	return &Runs{next: next, store: store, fingerprint: scopedFingerprint(o.Scope, o.Fingerprint)}, nil
}

// Enabled reports whether the run cache keeps anything.
func (c *Runs) Enabled() bool { return c.store.enabled() }

// Stats reports the local store's counters (zero when disabled).
func (c *Runs) Stats() cache.Stats {
	if c.store.c == nil {
		return cache.Stats{}
	}
	return c.store.c.Stats()
}

// key is the store key of a run reference for the credential the request
// in ctx is sent with (the caller's own in passthrough mode).
func (c *Runs) key(ctx context.Context, ref restclient.RunRef) runKey {
	return runKey{fingerprint: c.fingerprint(ctx), name: ref.Name, rootID: ref.RunID, subID: ref.SubRunID}
}

// Cached returns a run's details when the store holds them (the run is
// final), without reading anything.
func (c *Runs) Cached(ctx context.Context, ref restclient.RunRef) (*gen.DAGRunDetails, bool) {
	return c.store.details(c.key(ctx, ref))
}

// Details answers from the store, or reads (through the shared level,
// which coalesces reads of a final run across replicas) and notes the run
// (noteRun).
func (c *Runs) Details(ctx context.Context, t RunTarget) (*gen.DAGRunDetails, error) {
	if d, ok := c.Cached(ctx, t.Ref); ok {
		return d, nil
	}
	d, err := c.store.loadDetails(ctx, c.key(ctx, t.Ref), func(ctx context.Context) (*gen.DAGRunDetails, bool, error) {
		d, err := c.next.Details(ctx, t)
		return d, err == nil && FinalTarget(t, d), err
	})
	if err == nil {
		c.noteRun(ctx, t, d)
	}
	return d, err
}

// Latest is never answered from the store, but the concrete run it names
// is noted.
func (c *Runs) Latest(ctx context.Context, name string) (*gen.DAGRunDetails, error) {
	d, err := c.next.Latest(ctx, name)
	if err == nil && d.DagRunId != "" {
		c.noteRoot(c.key(ctx, restclient.RunRef{Name: name, RunID: d.DagRunId}), d)
	}
	return d, err
}

// StepLog answers each stream window of a final run from the store and
// reads only the ones it lacks. When the store could keep them but the
// run's state is not known yet, the run's details are read alongside the
// streams (one more call in the same round trip), so that the next read is
// served from the store and a 404 needs no follow-up call; t comes back
// holding those details (or their failure).
func (c *Runs) StepLog(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (RunTarget, []StreamRead) {
	d, known := c.KnownDetails(ctx, &t)
	switch {
	case !known && c.store.enabled() && (!t.Ref.IsSub() || FinalRun(t.Root)) && c.Coalescing():
		return c.stepLogAfterDetails(ctx, t, step, streams, w)
	case !known && c.store.enabled() && (!t.Ref.IsSub() || FinalRun(t.Root)):
		return c.stepLogWithDetails(ctx, t, step, streams, w)
	case !known || !FinalTarget(t, d):
		return c.next.StepLog(ctx, t, step, streams, w)
	}
	return t, c.storedStreams(ctx, t, step, streams, w)
}

// KnownDetails returns the details of the run t names when the read
// already has them: the root's from resolving, a sub-run's from the store
// (then kept in t).
func (c *Runs) KnownDetails(ctx context.Context, t *RunTarget) (*gen.DAGRunDetails, bool) {
	if !t.Ref.IsSub() {
		return t.Root, t.Root != nil
	}
	d, ok := c.Cached(ctx, t.Ref)
	if ok {
		t.Fetched = d
	}
	return d, ok
}

// stepLogWithDetails reads the streams and the run's details concurrently
// and stores the streams' outcomes when the run turns out final.
func (c *Runs) stepLogWithDetails(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (RunTarget, []StreamRead) {
	var d *gen.DAGRunDetails
	var err error
	var wg sync.WaitGroup
	read := t
	wg.Go(func() { d, err = c.next.Details(ctx, read) })
	_, reads := c.next.StepLog(ctx, t, step, streams, w)
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
	if FinalTarget(t, d) {
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
func (c *Runs) stepLogAfterDetails(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) (RunTarget, []StreamRead) {
	d, err := c.Details(ctx, t)
	if err != nil {
		t.FetchErr = err
		_, reads := c.next.StepLog(ctx, t, step, streams, w)
		return t, reads
	}
	if t.Ref.IsSub() {
		t.Fetched = d
	} else {
		t.Root = d
	}
	if !FinalTarget(t, d) {
		_, reads := c.next.StepLog(ctx, t, step, streams, w)
		return t, reads
	}
	return t, c.storedStreams(ctx, t, step, streams, w)
}

// storedStreams answers each stream from the store, reads the others and
// stores their outcomes. The run must be final.
func (c *Runs) storedStreams(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) []StreamRead {
	reads := make([]StreamRead, len(streams))
	var missing []gen.LogStream
	var at []int
	for i, s := range streams {
		if r, ok := c.store.stream(c.streamKey(ctx, step, s, w)); ok {
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
func (c *Runs) readStreams(ctx context.Context, t RunTarget, step restclient.StepRef, streams []gen.LogStream, w restclient.LogWindow) []StreamRead {
	if !c.store.shared.up() {
		_, reads := c.next.StepLog(ctx, t, step, streams, w)
		return reads
	}
	reads := make([]StreamRead, len(streams))
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Go(func() {
			l, err := loadRunPart(ctx, c.store, c.streamKey(ctx, step, s, w), func(ctx context.Context) (*gen.Log, bool, error) {
				_, r := c.next.StepLog(ctx, t, step, []gen.LogStream{s}, w)
				return r[0].Log, r[0].Err == nil && r[0].Log != nil, r[0].Err
			})
			reads[i] = StreamRead{Stream: s, Log: l, Err: err}
		})
	}
	wg.Wait()
	return reads
}

// storeStream keeps a stream's outcome when it is final: a window, or the
// handler's 404 saying the file does not exist. Any other failure, and a
// route the server lacks, is never stored.
func (c *Runs) storeStream(ctx context.Context, step restclient.StepRef, w restclient.LogWindow, r StreamRead) {
	if r.Err != nil && (!isStatus(r.Err, http.StatusNotFound) || restclient.IsRouteMissing(r.Err)) {
		return
	}
	c.store.putStream(c.streamKey(ctx, step, r.Stream, w), r)
}

// streamKey is the store key of one stream window of a step.
func (c *Runs) streamKey(ctx context.Context, step restclient.StepRef, s gen.LogStream, w restclient.LogWindow) runCacheKey {
	return runCacheKey{run: c.key(ctx, step.Run), part: partStepLog, step: step.Step, item: step.Item,
		bodyStep: step.BodyStep, stream: s, window: w}
}

// The run_logs read and the attempt ID gather their parts with concurrent
// calls of their own (runlogs.go, run.go); they keep a final run's parts
// through these methods, so the store is still reached only through this
// layer.

// Has reports whether the store holds the run's details (it is final),
// without counting a lookup.
func (c *Runs) Has(ctx context.Context, ref restclient.RunRef) bool {
	return c.store.has(c.key(ctx, ref))
}

// StoredSchedulerLog returns a final run's stored scheduler-log window.
func (c *Runs) StoredSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow) (*gen.Log, bool) {
	return c.store.schedulerLog(c.key(ctx, ref), w)
}

// StoredPresence returns a final run's stored stream presence.
func (c *Runs) StoredPresence(ctx context.Context, ref restclient.RunRef) (map[string]mapping.StreamPresence, bool) {
	return c.store.presence(c.key(ctx, ref))
}

// Coalescing reports whether finished-run log reads coalesce across
// replicas (the shared level is up), so a read should learn the run's
// state before reading its logs.
func (c *Runs) Coalescing() bool { return c.store.shared.up() }

// LoadSchedulerLog reads a final run's scheduler-log window through the
// shared level (loadRunPart).
func (c *Runs) LoadSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow, read func(context.Context) (*gen.Log, error)) (*gen.Log, error) {
	k := runCacheKey{run: c.key(ctx, ref), part: partSchedulerLog, window: w}
	return loadRunPart(ctx, c.store, k, func(ctx context.Context) (*gen.Log, bool, error) {
		l, err := read(ctx)
		return l, err == nil && l != nil, err
	})
}

// LoadPresence reads a final run's stream presence through the shared
// level (loadRunPart).
func (c *Runs) LoadPresence(ctx context.Context, ref restclient.RunRef, read func(context.Context) (map[string]mapping.StreamPresence, error)) (map[string]mapping.StreamPresence, error) {
	k := runCacheKey{run: c.key(ctx, ref), part: partPresence}
	return loadRunPart(ctx, c.store, k, func(ctx context.Context) (map[string]mapping.StreamPresence, bool, error) {
		p, err := read(ctx)
		return p, err == nil && p != nil, err
	})
}

// KeepSchedulerLog stores a final run's scheduler-log window.
func (c *Runs) KeepSchedulerLog(ctx context.Context, ref restclient.RunRef, w restclient.LogWindow, l *gen.Log) {
	c.store.putSchedulerLog(c.key(ctx, ref), w, l)
}

// KeepPresence stores a final run's stream presence.
func (c *Runs) KeepPresence(ctx context.Context, ref restclient.RunRef, p map[string]mapping.StreamPresence) {
	c.store.putPresence(c.key(ctx, ref), p)
}

// Attempt returns the attempt ID of the run t names: a final run's from the
// store, else read, and kept when the run is final and the ID was found
// (an empty answer may be an event log that lags, so it is read again).
func (c *Runs) Attempt(ctx context.Context, t RunTarget, d *gen.DAGRunDetails, read func() string) string {
	final := FinalTarget(t, d)
	k := c.key(ctx, t.Ref)
	if final {
		if id, ok := c.store.attempt(k); ok {
			return id
		}
	}
	id := read()
	if final && id != "" {
		c.store.putAttempt(k, id)
	}
	return id
}

// isStatus reports whether err is Dagu's answer with that HTTP status.
func isStatus(err error, status int) bool {
	re, ok := restclient.AsError(err)
	return ok && re.Status == status
}
