// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// runCacheEntries bounds the number of run-cache entries; the byte budget
// (RunsOptions.Bytes) is meant to be the bound that binds.
const runCacheEntries = 1 << 16

// runKey names one run, root or sub-run, as one credential sees it. The
// root run ID is always concrete: "latest" is never a key.
type runKey struct {
	fingerprint string
	name        string // the root run's DAG name, as addressed
	rootID      string
	subID       string // "" for the root run
}

// runPart is which part of a run an entry holds.
type runPart uint8

const (
	partDetails      runPart = iota // *gen.DAGRunDetails
	partAttempt                     // string
	partPresence                    // map[string]mapping.StreamPresence
	partSchedulerLog                // *gen.Log
	partStepLog                     // StreamRead
)

// runCacheKey addresses one entry: a part of a run and, for logs, which
// window of which stream of which step (or foreach body step).
type runCacheKey struct {
	run      runKey
	part     runPart
	step     string
	item     string
	bodyStep string
	stream   gen.LogStream
	window   restclient.LogWindow
}

// runCacheValue is a stored part with the bytes it and its key take.
type runCacheValue struct {
	value any
	size  int64
}

// runStore is the storage of the run cache: what a run in a final state
// can no longer change (its details, attempt ID, stream presence and log
// windows). Entries expire after RunsOptions.TTL (a retried run gets a new
// attempt under the same ID) and are dropped as soon as a read shows the
// run changed. Only Runs (runs.go) uses it. The zero value is a disabled store.
type runStore struct {
	c *cache.Cache[runCacheKey, runCacheValue]
	// shared is the second level behind c (RunsOptions.Shared).
	shared sharedRuns
}

func newRunStore(o RunsOptions) (runStore, error) {
	if o.Stores != nil {
		if o.Stores.runs == nil {
			return runStore{}, nil
		}
		return runStore{c: o.Stores.runs, shared: sharedRuns{store: o.Shared, ttl: o.TTL}}, nil
	}
	if o.Bytes <= 0 {
		return runStore{}, nil
	}
	c, err := cache.New[runCacheKey, runCacheValue](cache.Options[runCacheValue]{
		Name: "dagu_finished_runs", MaxEntries: runCacheEntries, MaxBytes: o.Bytes, TTL: o.TTL,
		SizeOf: func(v runCacheValue) int64 { return v.size }, Registerer: o.Registerer, Now: o.Now,
	})
	if err != nil {
		return runStore{}, fmt.Errorf("run cache: %w", err)
	}
	return runStore{c: c, shared: sharedRuns{store: o.Shared, ttl: o.TTL}}, nil
}

// enabled reports whether the cache stores anything.
func (r runStore) enabled() bool { return r.c != nil }

// get looks an entry up here, then in the shared level, keeping what the
// shared level had.
func (r runStore) get(k runCacheKey) (any, bool) {
	if r.c == nil {
		return nil, false
	}
	if v, ok := r.c.Get(k); ok {
		return v.value, true
	}
	v, ok := r.sharedGet(k)
	if ok {
		r.keep(k, v)
	}
	return v, ok
}

// put keeps an entry here and shares it.
func (r runStore) put(k runCacheKey, v any) {
	if r.c == nil {
		return
	}
	r.keep(k, v)
	r.sharedPut(k, v)
}

// keep stores an entry here only.
func (r runStore) keep(k runCacheKey, v any) {
	r.c.Add(k, runCacheValue{value: v, size: cache.ApproxSize(k) + cache.ApproxSize(v)})
}

// forget drops every entry of a root run and of its sub-runs.
func (r runStore) forget(run runKey) {
	if r.c == nil {
		return
	}
	r.sharedForget(run)
	r.c.RemoveIf(func(k runCacheKey) bool {
		return k.run.fingerprint == run.fingerprint && k.run.name == run.name && k.run.rootID == run.rootID
	})
}

// Details returns a run's cached details.
func (r runStore) details(k runKey) (*gen.DAGRunDetails, bool) {
	v, ok := r.get(runCacheKey{run: k, part: partDetails})
	d, _ := v.(*gen.DAGRunDetails)
	return d, ok && d != nil
}

// peekDetails is details without counting a lookup, for observations.
func (r runStore) peekDetails(k runKey) (*gen.DAGRunDetails, bool) {
	if r.c == nil {
		return nil, false
	}
	v, ok := r.c.Peek(runCacheKey{run: k, part: partDetails})
	d, _ := v.value.(*gen.DAGRunDetails)
	return d, ok && d != nil
}

func (r runStore) putDetails(k runKey, d *gen.DAGRunDetails) {
	r.put(runCacheKey{run: k, part: partDetails}, d)
}

func (r runStore) attempt(k runKey) (string, bool) {
	v, ok := r.get(runCacheKey{run: k, part: partAttempt})
	id, _ := v.(string)
	return id, ok
}

func (r runStore) putAttempt(k runKey, id string) {
	r.put(runCacheKey{run: k, part: partAttempt}, id)
}

func (r runStore) presence(k runKey) (map[string]mapping.StreamPresence, bool) {
	v, ok := r.get(runCacheKey{run: k, part: partPresence})
	p, _ := v.(map[string]mapping.StreamPresence)
	return p, ok && p != nil
}

func (r runStore) putPresence(k runKey, p map[string]mapping.StreamPresence) {
	r.put(runCacheKey{run: k, part: partPresence}, p)
}

func (r runStore) schedulerLog(k runKey, w restclient.LogWindow) (*gen.Log, bool) {
	v, ok := r.get(runCacheKey{run: k, part: partSchedulerLog, window: w})
	l, _ := v.(*gen.Log)
	return l, ok && l != nil
}

func (r runStore) putSchedulerLog(k runKey, w restclient.LogWindow, l *gen.Log) {
	r.put(runCacheKey{run: k, part: partSchedulerLog, window: w}, l)
}

// stream returns a stored outcome of one stream window of a step.
func (r runStore) stream(k runCacheKey) (StreamRead, bool) {
	v, ok := r.get(k)
	o, _ := v.(StreamRead)
	return o, ok
}

// putStream keeps the outcome of one stream window of a step.
func (r runStore) putStream(k runCacheKey, o StreamRead) {
	r.put(k, o)
}

// Has reports whether the run's details are cached, without counting a
// lookup; details only the shared level holds are kept here first.
func (r runStore) has(k runKey) bool {
	if _, ok := r.peekDetails(k); ok {
		return true
	}
	d, ok := r.sharedGet(runCacheKey{run: k, part: partDetails})
	if ok {
		r.keep(runCacheKey{run: k, part: partDetails}, d)
	}
	return ok
}
