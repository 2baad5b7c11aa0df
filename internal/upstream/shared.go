// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// Kinds of shared cache entries: the second level behind the local caches
// of the same names (AdapterOptions.Shared).
const (
	sharedKindRun   = "run"   // the run store (runstore.go)
	sharedKindSpec  = "spec"  // DAG specs (cache.go)
	sharedKindNames = "names" // the DAG name list (cache.go)
	sharedKindList  = "list"  // the list micro-cache (lists.go)
)

// sharedGet decodes the shared value under k into a T. A value that does
// not decode (another gateway version wrote it) is a miss.
func sharedGet[T any](ctx context.Context, s *sharedstate.Store, k sharedstate.Key) (T, bool) {
	var v T
	raw, ok := s.Get(ctx, k)
	if !ok || json.Unmarshal(raw, &v) != nil {
		var zero T
		return zero, false
	}
	return v, true
}

// sharedPut shares v under k for ttl unless a value is shared there
// already (sharedstate.Store.Add): writing back what was read never
// extends its life. A value that does not encode is not shared.
func sharedPut(ctx context.Context, s *sharedstate.Store, k sharedstate.Key, v any, ttl time.Duration) {
	if s == nil {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.Add(ctx, k, raw, ttl)
}

// sharedLoad reads through the shared level: a value another replica
// read is decoded; otherwise one replica reads (read) while the others
// wait for its value (sharedstate.Store.Load). keep says whether a read
// value may be shared. With no shared store, or a shared value that does
// not decode, read runs directly.
func sharedLoad[T any](ctx context.Context, s *sharedstate.Store, k sharedstate.Key, ttl time.Duration, read func(context.Context) (T, bool, error)) (T, error) {
	if s == nil {
		v, _, err := read(ctx)
		return v, err
	}
	var mine T
	var led bool
	raw, err := s.Load(ctx, k, ttl, func(ctx context.Context) ([]byte, bool, error) {
		v, keep, err := read(ctx)
		mine, led = v, true
		if err != nil || !keep {
			return nil, false, err
		}
		b, jerr := json.Marshal(v)
		return b, jerr == nil, nil
	})
	switch {
	case led:
		return mine, err
	case err != nil && ctx.Err() != nil:
		// The caller stopped waiting for another replica's read: let the
		// REST client report that the way it reports its own calls.
		v, _, err := read(ctx)
		return v, err
	case err != nil:
		var zero T
		return zero, err
	}
	var v T
	if json.Unmarshal(raw, &v) != nil {
		v, _, err = read(ctx)
	}
	return v, err
}

// throughShared puts the shared level behind a local cache's load: the
// load then reads what another replica shared under k, or reads for every
// replica and shares the answer for ttl. Without a shared store it is load
// itself.
func throughShared[T any](a *Adapter, k sharedstate.Key, ttl time.Duration, load func(context.Context) (T, error)) func(context.Context) (T, error) {
	if a.opts.Shared == nil {
		return load
	}
	return func(ctx context.Context) (T, error) {
		return sharedLoad(ctx, a.opts.Shared, k, ttl, func(ctx context.Context) (T, bool, error) {
			v, err := load(ctx)
			return v, err == nil, err
		})
	}
}
