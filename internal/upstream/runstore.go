// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"strconv"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/mapping"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// runKey names one run, root or sub-run, as one credential sees it. The
// root run ID is always concrete: "latest" is never a key.
type runKey struct {
	credential string
	name       string // the root run's DAG name, as addressed
	rootID     string
	subID      string // "" for the root run
}

// root is the key of the run's root run.
func (k runKey) root() runKey {
	return runKey{credential: k.credential, name: k.name, rootID: k.rootID}
}

// runPart is which part of a run an entry holds.
type runPart uint8

const (
	partDetails      runPart = iota // *gen.DAGRunDetails
	partAttempt                     // string
	partPresence                    // map[string]mapping.StreamPresence
	partSchedulerLog                // *gen.Log
	partStepLog                     // streamRead
)

// runCacheKey addresses one entry: a part of a run and, for logs, which
// window of which stream of which step (or foreach body step). It is the
// entry's key at both levels: the local store's as it is, the shared
// level's through shared.
type runCacheKey struct {
	run      runKey
	part     runPart
	step     string
	item     string
	bodyStep string
	stream   gen.LogStream
	window   restclient.LogWindow
}

// shared is the entry's key at the shared level: every field of the key,
// then the states (stateSignature) of the runs it depends on. The local
// store drops a run's entries when it sees the run change; the shared
// level cannot, so there the state is part of the key and a retried
// run's old parts are never found again.
func (k runCacheKey) shared(states ...string) sharedstate.Key {
	r, w := k.run, k.window
	parts := append([]string{r.name, r.rootID, r.subID, strconv.Itoa(int(k.part)), k.step, k.item, k.bodyStep, string(k.stream),
		strconv.Itoa(w.Tail), strconv.Itoa(w.Head), strconv.Itoa(w.Offset), strconv.Itoa(w.Limit)}, states...)
	return sharedstate.Key{Kind: kindRun, Fingerprint: r.credential, Parts: parts}
}

// stateSignature names one attempt of a run in one state.
func stateSignature(d *gen.DAGRunDetails) string {
	return strconv.Itoa(d.Status) + "|" + d.StartedAt + "|" + d.FinishedAt + "|" + strconv.Itoa(d.AutoRetryCount)
}

// runCacheValue is a stored part with the bytes it and its key take.
type runCacheValue struct {
	value any
	size  int64
}

// bytes is what the entry counts against the run cache's byte budget.
func (v runCacheValue) bytes() int64 { return v.size }

// runStore is the storage of the run cache: what a run in a final state
// can no longer change (its details, attempt ID, stream presence and log
// windows), in this Dagu server's part (scope) of the local store, then
// the shared level. Entries expire after RunCacheTTL (a retried run gets a
// new attempt under the same ID) and are dropped as soon as a read shows
// the run changed. Only runCache (runcache.go) uses it. The zero value is
// a disabled store.
//
// At the shared level a root run's details are shared under its ID alone
// and deleted when a replica sees the run changed; every other part is
// shared under the state of the runs it belongs to (the root's and, for a
// sub-run, the sub-run's), as this replica holds them.
type runStore struct {
	c      *cache.Cache[scoped[runCacheKey], runCacheValue]
	scope  string
	shared *sharedLevel
	ttl    time.Duration // the shared entries' lifetime
	// grants says whether a credential's entries may be served: Dagu
	// confirmed what it may see within the re-check period (nil: always).
	grants *grantBook
}

// usable reports whether the entries of the credential k was read with
// may answer now (see grantBook.usable).
func (r runStore) usable(k runKey) bool {
	return r.grants.usable(context.Background(), k.credential)
}

// enabled reports whether the cache stores anything.
func (r runStore) enabled() bool { return r.c != nil }

// local is the local store's key of k.
func (r runStore) local(k runCacheKey) scoped[runCacheKey] {
	return scoped[runCacheKey]{scope: r.scope, key: k}
}

// get looks an entry up here, then in the shared level, keeping what the
// shared level had.
func (r runStore) get(ctx context.Context, k runCacheKey) (any, bool) {
	if r.c == nil || !r.usable(k.run) {
		return nil, false
	}
	if v, ok := r.c.Get(r.local(k)); ok {
		return v.value, true
	}
	v, ok := r.sharedGet(k)
	if ok {
		r.keep(ctx, k, v)
	}
	return v, ok
}

// put keeps an entry here and shares it.
func (r runStore) put(ctx context.Context, k runCacheKey, v any) {
	if r.c == nil {
		return
	}
	r.keep(ctx, k, v)
	r.sharedPut(k, v)
}

// keep stores an entry here only, as the entry of the caller of the
// request in ctx (cacheOwner): one caller's entries then never push
// another caller's out of the store (cache.Cache.AddFor).
func (r runStore) keep(ctx context.Context, k runCacheKey, v any) {
	local := r.local(k)
	r.c.AddFor(cacheOwner(ctx, k.run.credential), local, runCacheValue{value: v, size: cache.ApproxSize(local) + cache.ApproxSize(v)})
}

// cacheOwner names the caller whose entries an entry stored for the
// request in ctx counts among: the caller the front door named (who the
// credential belongs to: an inbound token's name, the identity Dagu gives
// a key), else the credential the entry was read with. It is not part of
// any key: callers who read Dagu with the same credential still share
// its entries, and an entry counts against the caller that stored it.
func cacheOwner(ctx context.Context, credential string) string {
	if info, ok := reqctx.From(ctx); ok && info.Caller != "" {
		return "caller " + info.Caller
	}
	return "credential " + credential
}

// forget drops every entry of a root run and of its sub-runs.
func (r runStore) forget(run runKey) {
	if r.c == nil {
		return
	}
	r.sharedForget(run)
	root := run.root()
	r.c.RemoveIf(func(k scoped[runCacheKey]) bool { return k.scope == r.scope && k.key.run.root() == root })
}

// details returns a run's cached details.
func (r runStore) details(ctx context.Context, k runKey) (*gen.DAGRunDetails, bool) {
	v, ok := r.get(ctx, runCacheKey{run: k, part: partDetails})
	d, _ := v.(*gen.DAGRunDetails)
	return d, ok && d != nil
}

// peekDetails is details without counting a lookup, for observations.
func (r runStore) peekDetails(k runKey) (*gen.DAGRunDetails, bool) {
	if r.c == nil {
		return nil, false
	}
	v, ok := r.c.Peek(r.local(runCacheKey{run: k, part: partDetails}))
	d, _ := v.value.(*gen.DAGRunDetails)
	return d, ok && d != nil
}

func (r runStore) putDetails(ctx context.Context, k runKey, d *gen.DAGRunDetails) {
	r.put(ctx, runCacheKey{run: k, part: partDetails}, d)
}

func (r runStore) attempt(ctx context.Context, k runKey) (string, bool) {
	v, ok := r.get(ctx, runCacheKey{run: k, part: partAttempt})
	id, _ := v.(string)
	return id, ok
}

func (r runStore) putAttempt(ctx context.Context, k runKey, id string) {
	r.put(ctx, runCacheKey{run: k, part: partAttempt}, id)
}

func (r runStore) presence(ctx context.Context, k runKey) (map[string]mapping.StreamPresence, bool) {
	v, ok := r.get(ctx, runCacheKey{run: k, part: partPresence})
	p, _ := v.(map[string]mapping.StreamPresence)
	return p, ok && p != nil
}

func (r runStore) putPresence(ctx context.Context, k runKey, p map[string]mapping.StreamPresence) {
	r.put(ctx, runCacheKey{run: k, part: partPresence}, p)
}

func (r runStore) schedulerLog(ctx context.Context, k runKey, w restclient.LogWindow) (*gen.Log, bool) {
	v, ok := r.get(ctx, runCacheKey{run: k, part: partSchedulerLog, window: w})
	l, _ := v.(*gen.Log)
	return l, ok && l != nil
}

func (r runStore) putSchedulerLog(ctx context.Context, k runKey, w restclient.LogWindow, l *gen.Log) {
	r.put(ctx, runCacheKey{run: k, part: partSchedulerLog, window: w}, l)
}

// stream returns a stored outcome of one stream window of a step.
func (r runStore) stream(ctx context.Context, k runCacheKey) (streamRead, bool) {
	v, ok := r.get(ctx, k)
	o, _ := v.(streamRead)
	return o, ok
}

// putStream keeps the outcome of one stream window of a step.
func (r runStore) putStream(ctx context.Context, k runCacheKey, o streamRead) {
	r.put(ctx, k, o)
}

// has reports whether the run's details are cached, without counting a
// lookup; details only the shared level holds are kept here first.
func (r runStore) has(ctx context.Context, k runKey) bool {
	if !r.usable(k) {
		return false
	}
	if _, ok := r.peekDetails(k); ok {
		return true
	}
	d, ok := r.sharedGet(runCacheKey{run: k, part: partDetails})
	if ok {
		r.keep(ctx, runCacheKey{run: k, part: partDetails}, d)
	}
	return ok
}

// sharedKey is the shared key of an entry, with the states of the runs it
// belongs to as this replica holds them; ok is false when the entry cannot
// be shared (a state it needs is not held here).
func (r runStore) sharedKey(k runCacheKey) (sharedstate.Key, bool) {
	run := k.run
	if run.subID == "" && k.part == partDetails {
		return k.shared(), true
	}
	root, ok := r.peekDetails(run.root())
	if !ok {
		return sharedstate.Key{}, false
	}
	if run.subID == "" || k.part == partDetails {
		return k.shared(stateSignature(root)), true
	}
	sub, ok := r.peekDetails(run)
	if !ok {
		return sharedstate.Key{}, false
	}
	return k.shared(stateSignature(root), stateSignature(sub)), true
}

// sharedGet looks an entry up in the shared level, decoded as its part's
// type. A step-log stream is shared only as a window, never as a failure.
func (r runStore) sharedGet(k runCacheKey) (any, bool) {
	if r.shared == nil {
		return nil, false
	}
	key, ok := r.sharedKey(k)
	if !ok {
		return nil, false
	}
	ctx, s := context.Background(), r.shared
	switch k.part {
	case partDetails:
		d, ok := sharedGet[*gen.DAGRunDetails](ctx, s, key)
		return d, ok && d != nil
	case partAttempt:
		return sharedGet[string](ctx, s, key)
	case partPresence:
		p, ok := sharedGet[map[string]mapping.StreamPresence](ctx, s, key)
		return p, ok && p != nil
	case partSchedulerLog:
		l, ok := sharedGet[*gen.Log](ctx, s, key)
		return l, ok && l != nil
	case partStepLog:
		l, ok := sharedGet[*gen.Log](ctx, s, key)
		return streamRead{Stream: k.stream, Log: l}, ok && l != nil
	}
	return nil, false
}

// sharedPut shares an entry the local store just kept.
func (r runStore) sharedPut(k runCacheKey, v any) {
	if r.shared == nil {
		return
	}
	if sr, ok := v.(streamRead); ok {
		if sr.Err != nil || sr.Log == nil {
			return
		}
		v = sr.Log
	}
	if key, ok := r.sharedKey(k); ok {
		r.shared.put(context.Background(), key, v, r.ttl)
	}
}

// sharedForget deletes a root run's shared details, which are shared under
// its ID alone; its other parts are keyed by the state that changed.
func (r runStore) sharedForget(run runKey) {
	if r.shared == nil {
		return
	}
	if key, ok := r.sharedKey(runCacheKey{run: run.root(), part: partDetails}); ok {
		r.shared.delete(context.Background(), key)
	}
}

// loadRunPart reads a run's part through the shared level when it is on,
// keyed like the part's shared entry (sharedKey): a replica that finds it
// shared uses it, and concurrent reads of it across replicas make one
// call. keep says whether the value read may be shared. Without the
// shared level, or when a state the key needs is not held here, read runs
// directly. Parts other than details are read through it only for a final
// run.
func loadRunPart[T any](ctx context.Context, r runStore, k runCacheKey, read func(context.Context) (T, bool, error)) (T, error) {
	if r.shared != nil && r.usable(k.run) { // first: the key costs a lookup and allocations
		if key, ok := r.sharedKey(k); ok {
			return sharedLoad(ctx, r.shared, key, r.ttl, read)
		}
	}
	v, _, err := read(ctx)
	return v, err
}
