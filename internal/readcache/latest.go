// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"fmt"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
)

// latestHintEntries bounds the latest-run hints (one run ID per DAG and key).
const latestHintEntries = 4096

// dagKey names a DAG as one credential sees it.
type dagKey struct {
	fingerprint string
	name        string
}

// LatestHints remember, per credential and DAG, the run the DAG's latest
// run last resolved to, so that resolving "latest" again can try the run
// cache first. A nil *LatestHints remembers nothing.
type LatestHints struct {
	c     *cache.Cache[dagKey, string]
	scope string // see Stores
}

// NewLatestHints keeps hints for ttl (the run cache's lifetime).
func NewLatestHints(ttl time.Duration, now func() time.Time) (*LatestHints, error) {
	c, err := cache.New[dagKey, string](cache.Options[string]{MaxEntries: latestHintEntries, TTL: ttl, Now: now})
	if err != nil {
		return nil, fmt.Errorf("latest hints: %w", err)
	}
	return &LatestHints{c: c}, nil
}

// Get returns the run the DAG's latest run last resolved to.
func (h *LatestHints) Get(fingerprint, name string) (string, bool) {
	if h == nil {
		return "", false
	}
	return h.c.Get(dagKey{fingerprint: scoped(h.scope, fingerprint), name: name})
}

// Add remembers the run the DAG's latest run resolved to.
func (h *LatestHints) Add(fingerprint, name, runID string) {
	if h != nil && runID != "" {
		h.c.Add(dagKey{fingerprint: scoped(h.scope, fingerprint), name: name}, runID)
	}
}
