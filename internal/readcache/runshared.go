// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"strconv"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// sharedRuns is the run store's second level: the replicas' shared Redis.
// A run's parts are shared under the state of the run this replica holds
// (status, start, finish and retries of the root and, for a sub-run, of the
// sub-run), so a retried run's old parts are never found again; a root
// run's details are shared under its ID alone and deleted when a replica
// sees the run changed. The zero value shares nothing.
type sharedRuns struct {
	store *Shared
	ttl   time.Duration
}

// enabled reports whether anything is shared.
func (s sharedRuns) enabled() bool { return s.store != nil }

// key is the shared key of a run-store entry; ok is false when the entry
// cannot be shared (the run's own details are not held here).
func (r runStore) sharedKey(k runCacheKey) (SharedKey, bool) {
	run := k.run
	parts := []string{run.name, run.rootID, run.subID, strconv.Itoa(int(k.part))}
	if run.subID != "" || k.part != partDetails {
		root, ok := r.peekDetails(runKey{fingerprint: run.fingerprint, name: run.name, rootID: run.rootID})
		if !ok {
			return SharedKey{}, false
		}
		parts = append(parts, stateSignature(root))
		if run.subID != "" && k.part != partDetails {
			sub, ok := r.peekDetails(run)
			if !ok {
				return SharedKey{}, false
			}
			parts = append(parts, stateSignature(sub))
		}
	}
	if k.part == partStepLog || k.part == partSchedulerLog {
		w := k.window
		parts = append(parts, k.step, k.item, k.bodyStep, string(k.stream),
			strconv.Itoa(w.Tail), strconv.Itoa(w.Head), strconv.Itoa(w.Offset), strconv.Itoa(w.Limit))
	}
	return r.shared.store.Key(KindRun, run.fingerprint, parts...), true
}

// stateSignature names one attempt of a run in one state.
func stateSignature(d *gen.DAGRunDetails) string {
	return strconv.Itoa(d.Status) + "|" + d.StartedAt + "|" + d.FinishedAt + "|" + strconv.Itoa(d.AutoRetryCount)
}

// sharedGet looks an entry up in the shared level, decoded as its part's
// type. A step-log stream is shared only as a window, never as a failure.
func (r runStore) sharedGet(k runCacheKey) (any, bool) {
	if !r.shared.enabled() {
		return nil, false
	}
	key, ok := r.sharedKey(k)
	if !ok {
		return nil, false
	}
	ctx, s := context.Background(), r.shared.store
	switch k.part {
	case partDetails:
		d, ok := Get[*gen.DAGRunDetails](ctx, s, key)
		return d, ok && d != nil
	case partAttempt:
		return Get[string](ctx, s, key)
	case partPresence:
		p, ok := Get[map[string]mapping.StreamPresence](ctx, s, key)
		return p, ok && p != nil
	case partSchedulerLog:
		l, ok := Get[*gen.Log](ctx, s, key)
		return l, ok && l != nil
	case partStepLog:
		l, ok := Get[*gen.Log](ctx, s, key)
		return StreamRead{Stream: k.stream, Log: l}, ok && l != nil
	}
	return nil, false
}

// sharedPut shares an entry the local store just kept.
func (r runStore) sharedPut(k runCacheKey, v any) {
	if !r.shared.enabled() {
		return
	}
	if sr, ok := v.(StreamRead); ok {
		if sr.Err != nil || sr.Log == nil {
			return
		}
		v = sr.Log
	}
	if key, ok := r.sharedKey(k); ok {
		r.shared.store.Put(context.Background(), key, v, r.shared.ttl)
	}
}

// sharedForget deletes a root run's shared details, which are shared under
// its ID alone; its other parts are keyed by the state that changed.
func (r runStore) sharedForget(run runKey) {
	if !r.shared.enabled() {
		return
	}
	root := runKey{fingerprint: run.fingerprint, name: run.name, rootID: run.rootID}
	if key, ok := r.sharedKey(runCacheKey{run: root, part: partDetails}); ok {
		r.shared.store.Delete(context.Background(), key)
	}
}

// loadDetails reads a run's details through the shared level when it is
// on: a replica that finds them shared uses them, and concurrent reads of
// one run across replicas make one call (keep says whether the details
// read may be shared: the run is final). Without it, read runs directly.
func (r runStore) loadDetails(ctx context.Context, k runKey, read func(context.Context) (*gen.DAGRunDetails, bool, error)) (*gen.DAGRunDetails, error) {
	if r.shared.enabled() { // first: the key costs a lookup and allocations
		if key, ok := r.sharedKey(runCacheKey{run: k, part: partDetails}); ok {
			return Load(ctx, r.shared.store, key, r.shared.ttl, read)
		}
	}
	d, _, err := read(ctx)
	return d, err
}

// up reports whether the shared level is on and Redis is answering: only
// then does a read wait for a run's state to coalesce a part's read.
func (s sharedRuns) up() bool { return s.store.Up() }

// loadRunPart reads a final run's part (its scheduler-log window, stream
// presence or a step-log stream window) through the shared level, keyed
// like the part's shared entry (the credential's fingerprint and the run's
// state): concurrent reads of it across replicas make one call. keep says
// whether the value read may be shared. Without the shared level, or when
// the run's state is not held here, read runs directly. Never use it for
// a run that is not final.
func loadRunPart[T any](ctx context.Context, r runStore, k runCacheKey, read func(context.Context) (T, bool, error)) (T, error) {
	if r.shared.enabled() { // first: the key costs a lookup and allocations
		if key, ok := r.sharedKey(k); ok {
			return Load(ctx, r.shared.store, key, r.shared.ttl, read)
		}
	}
	v, _, err := read(ctx)
	return v, err
}
