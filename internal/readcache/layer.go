// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// DefaultCacheTTL is how long DAG specs and the DAG name list stay cached
// when Options.CacheTTL is zero.
const DefaultCacheTTL = 30 * time.Second

// Options configures a Layer.
type Options struct {
	// Fingerprint names the credential the request in ctx reads Dagu with
	// (restclient.Client.Fingerprint): part of every key, so one key is
	// never served what another loaded. Required.
	Fingerprint func(ctx context.Context) string
	// CacheTTL is how long DAG specs and the DAG name list stay cached
	// (default 30s); a negative value disables those caches.
	CacheTTL time.Duration
	// Shared, when set, is the second level behind the local caches, with
	// the same keys and lifetimes.
	Shared *Shared
	// Lifetime returns the context background refreshes run under (the
	// process's lifetime); nil means one that never ends.
	Lifetime func() context.Context
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// Registerer, when set, receives the caches' metrics.
	Registerer prometheus.Registerer
	// Stores, when set, are the process's stores (the caches' own when
	// nil), whose keys Scope, one Dagu server's, makes this layer's.
	Stores *Stores
	Scope  string
}

// SettingTTL is Options.CacheTTL of the operator's setting, whose 0 means
// no caching (the negative value that disables it).
func SettingTTL(setting time.Duration) time.Duration {
	if setting == 0 {
		return -1
	}
	return setting
}

func (o Options) withDefaults() Options {
	if o.CacheTTL == 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.Lifetime == nil {
		o.Lifetime = context.Background
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Layer is the cache around the read tool's ports. Reads it caches walk
// down once: the local cache, then the shared level, then the inner port;
// every other read goes straight to the inner port. It is safe for
// concurrent use.
type Layer struct {
	Ports // the inner port: every read the layer does not cache
	opts  Options
	dags  dagCaches
}

// New builds the layer around inner.
func New(inner Ports, o Options) (*Layer, error) {
	if inner == nil || o.Fingerprint == nil {
		return nil, errors.New("read cache: the inner port and Fingerprint are required")
	}
	o = o.withDefaults()
	o.Fingerprint = scopedFingerprint(o.Scope, o.Fingerprint)
	dags, err := newDAGCaches(o)
	if err != nil {
		return nil, err
	}
	return &Layer{Ports: inner, opts: o, dags: dags}, nil
}

// WaitRefreshes waits for the background refreshes the layer started.
func (l *Layer) WaitRefreshes() {
	if l.dags.names != nil {
		l.dags.names.WaitRefreshes()
	}
}
