// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// DefaultCacheTTL is how long DAG specs and the DAG name list stay cached
// when DAGsOptions.CacheTTL is zero.
const DefaultCacheTTL = 30 * time.Second

// DAGsOptions configures DAGs.
type DAGsOptions struct {
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
	// nil), whose keys Scope, one Dagu server's, makes these caches'.
	Stores *Stores
	Scope  string
}

// SettingTTL is DAGsOptions.CacheTTL of the operator's setting, whose 0 means
// no caching (the negative value that disables it).
func SettingTTL(setting time.Duration) time.Duration {
	if setting == 0 {
		return -1
	}
	return setting
}

func (o DAGsOptions) withDefaults() DAGsOptions {
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
