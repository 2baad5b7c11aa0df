// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"
)

// Adapter defaults, applied by NewAdapter to zero AdapterOptions fields.
const (
	DefaultRunWindow         = model.DefaultRunWindow
	DefaultRunLogsTail       = model.DefaultLogTail
	DefaultStepLogTail       = model.DefaultLogTail
	DefaultLogBudget         = model.DefaultLogBudget
	DefaultCapabilityRefresh = 5 * time.Minute
	DefaultRunCacheTTL       = 5 * time.Minute
)

// Recommended sizes of the caches that are off in the zero AdapterOptions
// (the gateway's flags default to them).
const (
	DefaultDAGCacheTTL   = 30 * time.Second
	DefaultRunCacheBytes = 32 << 20
	DefaultListCacheTTL  = time.Second
)

const (
	// detectTimeout bounds one capability detection.
	detectTimeout = 10 * time.Second
	// redetectInterval is the shortest time between two re-detections a
	// router-level 404 on a foreach route triggers.
	redetectInterval = 30 * time.Second
)

// AdapterOptions configures an Adapter.
type AdapterOptions struct {
	// Client is the Dagu REST client; required.
	Client *restclient.Client
	// RunWindow is how far back an unfiltered run list reaches (default
	// 7 days).
	RunWindow time.Duration
	// RunLogsTail is how many scheduler-log lines run_logs returns when the
	// caller asks for no window (default 200).
	RunLogsTail int
	// StepLogTail is how many lines per stream step_log returns when the
	// caller asks for no window (default 200).
	StepLogTail int
	// LogBudget caps the bytes of each log stream a default window returns
	// (default 32 KiB): the last lines that fit are kept and hasMore is
	// set, so an answer stays well under an agent's token budget however
	// long the lines are. An explicit window is never cut.
	LogBudget int
	// CapabilityRefresh is how often Start re-detects the server's
	// optional features (default 5m).
	CapabilityRefresh time.Duration
	// RunCacheBytes bounds the memory of the run cache; zero or a negative
	// value disables it (DefaultRunCacheBytes, 32 MiB, is the recommended
	// size). The run cache keeps, per credential, what a run in a final
	// state (succeeded, failed, aborted, partially_succeeded or rejected,
	// with no automatic retry left) can no longer change: the details of
	// the run and of its sub-runs, attempt IDs, stream presence and log
	// windows. Running, queued and waiting runs and "latest" itself are
	// never cached. With the cache on, a step_log read of a run whose state
	// is not known yet also reads the run's details, in the same round
	// trip, so that later reads of a final run make no call.
	RunCacheBytes int64
	// RunCacheTTL is how long a run-cache entry lives (default 5m). Dagu
	// can retry a finished run by hand under the same ID; the adapter drops
	// a run's entries as soon as a read shows it changed (its latest run,
	// a run list or a DAG read), and this bounds how long a retry can go
	// unseen otherwise.
	RunCacheTTL time.Duration
	// ListCacheTTL is the longest a dags, runs or dag answer is reused for
	// identical reads of the same credential: the staleness an agent may
	// see in lists. Zero or a negative value disables this micro-cache
	// (DefaultListCacheTTL, 1s, is the recommended value). Identical
	// concurrent reads share one upstream call either way. A runs answer
	// is reused only for the same run window.
	ListCacheTTL time.Duration
	// DAGCacheTTL is how long DAG specs and the DAG name list stay cached
	// per credential; zero or a negative value disables those caches
	// (DefaultDAGCacheTTL, 30s, is the recommended value). An expired name
	// list still answers for one more TTL while it is read again in the
	// background: the names only feed did-you-mean hints.
	DAGCacheTTL time.Duration
	// Shared, when set, is the second cache level the gateway's replicas
	// share (a Redis; see internal/sharedstate), one Dagu server's view of
	// it (sharedstate.Store.Scoped): behind the DAG caches, the run cache
	// and the list micro-cache, each with the same keys (credential
	// fingerprint included) and lifetimes. Concurrent reads of one run's
	// details or one list across replicas make one call. When it is
	// unavailable every read falls back to the local caches and Dagu. Nil
	// shares nothing.
	Shared *sharedstate.Store
	// Stores, when set, are the process's cache stores, shared by every
	// Dagu server it fronts: the cache sizes and lifetimes are then
	// theirs, and Scope (this server's) keeps this adapter's entries its
	// own. Nil: the adapter builds its own from its options.
	Stores *Stores
	Scope  string
	// Detections, when set, bounds the capability detections in flight
	// across the adapters sharing it (see DetectionSlots); nil: no bound.
	Detections *DetectionSlots
	// OnFirstDetection, when set, is handed the outcome of the first
	// detection Start runs (on Start's goroutine, with its ctx) instead of
	// the adapter's own log line about it, so that the command can say at
	// start-up what it reached. Later detections log as before.
	OnFirstDetection func(ctx context.Context, caps restclient.Capabilities, err error)
	// GrantRecheck, in passthrough, is package trust's re-check period of
	// a caller's key: every cached answer a credential reads is tied to
	// what Dagu last said it may see (CredentialIdentity's /auth/me), and
	// is served only while Dagu confirmed that within GrantRecheck (see
	// grantBook). Zero ties nothing (service mode: the gateway's own key).
	GrantRecheck time.Duration
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Registerer, when set, receives the adapter caches' metrics.
	Registerer prometheus.Registerer
}

// withDefaults fills the zero fields of o.
func (o AdapterOptions) withDefaults() AdapterOptions {
	if o.RunWindow <= 0 {
		o.RunWindow = DefaultRunWindow
	}
	if o.RunLogsTail <= 0 {
		o.RunLogsTail = DefaultRunLogsTail
	}
	if o.StepLogTail <= 0 {
		o.StepLogTail = DefaultStepLogTail
	}
	if o.LogBudget <= 0 {
		o.LogBudget = DefaultLogBudget
	}
	if o.CapabilityRefresh <= 0 {
		o.CapabilityRefresh = DefaultCapabilityRefresh
	}
	if o.RunCacheTTL <= 0 {
		o.RunCacheTTL = DefaultRunCacheTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Adapter answers the read tool's upstream questions (readtool.Upstream)
// in the contract's models, with as few Dagu REST calls as each read
// allows. It is safe for concurrent use.
type Adapter struct {
	client *restclient.Client
	opts   AdapterOptions
	log    *slog.Logger
	// The caches, each in this server's scope of the stores (cachestores.go).
	// dags keeps DAG specs and the DAG name list (GetDAGSpec, DAGNames).
	dags *dagCaches
	// eventLogs remembers whether each key's role may read the event log.
	eventLogs roleCache
	// runs is the one way to the parts of runs: the run cache around the
	// REST reads (restRuns).
	runs *runCache
	// lists is the list micro-cache.
	lists *listCache
	// grants ties a passthrough credential's cached answers to what Dagu
	// last said it may see; nil outside passthrough.
	grants *grantBook
	// hints remembers, per key and DAG, the run the DAG's latest run last
	// resolved to (see latestMayBeCached); nil with the run cache off.
	hints *latestHints

	// caps holds the last successful capability detection; nil until one
	// succeeded.
	caps atomic.Pointer[restclient.Capabilities]
	// detectFailed is set when the last detection failed, so that the next
	// caller credential checked (passthrough) detects again with it.
	detectFailed atomic.Bool
	// detecting lets concurrent credential checks and reads share one
	// detection.
	detecting singleflight.Group
	// dialectWaits counts reads that waited for a first detection.
	dialectWaits atomic.Int64

	mu           sync.Mutex // guards baseCtx, started and lastRedetect
	baseCtx      context.Context
	started      bool
	lastRedetect time.Time

	// background counts the goroutines the adapter started, so tests can
	// wait for them.
	background sync.WaitGroup
}

// NewAdapter builds an Adapter. It does not contact Dagu.
func NewAdapter(o AdapterOptions) (*Adapter, error) {
	if o.Client == nil {
		return nil, errors.New("upstream adapter: a restclient.Client is required")
	}
	o = o.withDefaults()
	stores := o.Stores
	if stores == nil {
		var err error
		stores, err = NewStores(StoresOptions{DAGCacheTTL: o.DAGCacheTTL, ListCacheTTL: o.ListCacheTTL, RunCacheBytes: o.RunCacheBytes,
			RunCacheTTL: o.RunCacheTTL, RoleTTL: o.CapabilityRefresh, Now: o.Now, Registerer: o.Registerer})
		if err != nil {
			return nil, fmt.Errorf("upstream adapter: %w", err)
		}
	}
	flights, err := cache.NewFlights[listKey, any]("dagu_lists", listLoadTimeout)
	if err != nil {
		return nil, fmt.Errorf("upstream adapter: %w", err)
	}
	scope := o.Scope
	// the longest a cached answer lives: a run part, a name list in its
	// stale window, a role answer
	held := max(o.RunCacheTTL, 2*o.DAGCacheTTL, o.ListCacheTTL, o.CapabilityRefresh, DefaultRunCacheTTL)
	grants, err := newGrantBook(o.GrantRecheck, held, o.Now, o.Shared, func(credential string) { stores.DropCredential(scope, credential) })
	if err != nil {
		return nil, fmt.Errorf("upstream adapter: %w", err)
	}
	shared := newSharedLevel(o.Shared, grants)
	a := &Adapter{client: o.Client, opts: o, log: o.Logger, baseCtx: context.Background(), grants: grants,
		eventLogs: roleCache{c: stores.roles, scope: scope, grants: grants},
		lists:     &listCache{store: stores.lists, flights: flights, shared: shared, ttl: o.ListCacheTTL, scope: scope, grants: grants},
	}
	a.dags = &dagCaches{specs: stores.specs, names: stores.names, shared: shared, ttl: o.DAGCacheTTL, scope: scope, lifetime: a.Lifetime, grants: grants}
	rest := restRuns{client: o.Client, apiBase: func() restclient.APIBase { return a.capsOrCurrent().APIBase }}
	a.runs = &runCache{next: rest, credential: o.Client.Fingerprint,
		store: runStore{c: stores.runs, scope: scope, shared: shared, ttl: o.RunCacheTTL, grants: grants}}
	if stores.hints != nil {
		a.hints = &latestHints{c: stores.hints, scope: scope, grants: grants}
	}
	return a, nil
}

// Start detects the server's capabilities now and again every
// CapabilityRefresh, on a goroutine, until ctx ends. Later calls do nothing.
func (a *Adapter) Start(ctx context.Context) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.started {
		return
	}
	a.started = true
	a.baseCtx = ctx
	a.background.Add(1)
	go func() {
		defer a.background.Done()
		a.refreshLoop(ctx)
	}()
}

// Wait waits for the background work the adapter started (end Start's ctx
// first), background refreshes of its caches included: the owner of a
// retired adapter knows that nothing of it runs.
func (a *Adapter) Wait() {
	a.background.Wait()
	a.dags.waitRefreshes()
}

// Lifetime returns the context background work runs under: Start's ctx,
// or a context that never ends before Start.
func (a *Adapter) Lifetime() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.baseCtx
}

func (a *Adapter) refreshLoop(ctx context.Context) {
	ticker := time.NewTicker(a.opts.CapabilityRefresh)
	defer ticker.Stop()
	report := a.opts.OnFirstDetection
	for {
		// Shared: reads waiting for the first detection join this one.
		v, err, _ := a.detecting.Do(detectKey, func() (any, error) { return a.Refresh(ctx) })
		switch {
		case ctx.Err() != nil:
		case report != nil:
			caps, _ := v.(restclient.Capabilities)
			report(ctx, caps, err)
		case err != nil:
			a.logDetectionFailure(ctx, err)
		}
		report = nil
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// logDetectionFailure warns of a failed background detection, except the
// one a passthrough gateway expects: without a caller's key a Dagu that
// requires one answers 401, and the first caller's key detects again.
func (a *Adapter) logDetectionFailure(ctx context.Context, err error) {
	var rerr *restclient.Error
	if a.client.Passthrough() && errors.As(err, &rerr) && rerr.Status == http.StatusUnauthorized {
		a.log.InfoContext(ctx, "Dagu's capabilities will be detected with the first caller's key (passthrough: Dagu answers 401 without one)")
		return
	}
	a.log.WarnContext(ctx, "detecting the Dagu server's capabilities failed", "error", err)
}

// Capabilities returns the last successful detection; ok is false when
// none has succeeded yet.
func (a *Adapter) Capabilities() (caps restclient.Capabilities, ok bool) {
	p := a.caps.Load()
	if p == nil {
		return restclient.Capabilities{}, false
	}
	return *p, true
}

// Refresh detects the server's capabilities now (bounded by 10s) and keeps
// the result when detection succeeds. When the server has the event log, it
// also learns whether the API key may read it, so that run reads need no
// extra call for that later.
func (a *Adapter) Refresh(ctx context.Context) (restclient.Capabilities, error) {
	ctx, cancel := context.WithTimeout(ctx, detectTimeout)
	defer cancel()
	release, err := a.opts.Detections.take(ctx)
	if err != nil {
		a.detectFailed.Store(true)
		return restclient.Capabilities{}, err
	}
	defer release()
	caps, err := a.client.DetectCapabilities(ctx)
	a.detectFailed.Store(err != nil)
	if err != nil {
		return caps, err
	}
	a.caps.Store(&caps)
	if caps.EventLogs {
		a.eventLogAccess(ctx)
	}
	return caps, nil
}

// foreachRoutesMaybe reports whether the foreach routes should be tried:
// the last detection found them, or no detection has succeeded yet.
func (a *Adapter) foreachRoutesMaybe() bool {
	caps, ok := a.Capabilities()
	return !ok || caps.ForeachRoutes
}

// redetectSoon starts a capability re-detection in the background, at most
// once per redetectInterval. A router-level 404 on a route the last
// detection promised calls it: the server was probably replaced.
func (a *Adapter) redetectSoon() {
	a.mu.Lock()
	now := a.opts.Now()
	if !a.lastRedetect.IsZero() && now.Sub(a.lastRedetect) < redetectInterval {
		a.mu.Unlock()
		return
	}
	a.lastRedetect = now
	ctx := a.baseCtx
	a.background.Add(1)
	a.mu.Unlock()
	go func() {
		defer a.background.Done()
		if _, err := a.Refresh(ctx); err != nil {
			a.log.Warn("re-detecting the Dagu server's capabilities failed", "error", err)
		}
	}()
}
