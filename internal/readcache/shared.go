// SPDX-License-Identifier: Apache-2.0

package readcache

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// Kinds of shared cache entries: the second level behind the local caches
// of the same names.
const (
	KindRun   = "run"   // parts of final runs
	KindSpec  = "spec"  // DAG specs
	KindNames = "names" // the DAG name list
	KindList  = "list"  // the list micro-cache
)

// Shared is the second cache level: the replicas' shared store. Its key
// scope is the store's: each Dagu server of a gateway that fronts several
// gets its own view (sharedstate.Store.Scoped), so two servers never read
// each other's entries. A nil *Shared shares nothing; every method then
// does nothing or reads directly.
type Shared struct {
	store *sharedstate.Store
}

// NewShared returns the shared level over store (nil: none), one Dagu
// server's view of it.
func NewShared(store *sharedstate.Store) *Shared {
	if store == nil {
		return nil
	}
	return &Shared{store: store}
}

// Up reports whether the shared level is on and its store is answering.
func (s *Shared) Up() bool { return s != nil && s.store.Up() }

// SharedKey names one shared entry (see Shared.Key).
type SharedKey = sharedstate.Key

// Key names one shared entry: which cache (one of the Kind constants), the
// credential's fingerprint and the rest of the local key. The local scope
// a fingerprint may carry (Stores) is left out: it is this process's, and
// the store's own scope already names the Dagu server for every replica.
func (s *Shared) Key(kind, fingerprint string, parts ...string) SharedKey {
	return SharedKey{Kind: kind, Fingerprint: unscoped(fingerprint), Parts: parts}
}

// Get decodes the shared value under k into a T. A value that does not
// decode (another gateway version wrote it) is a miss.
func Get[T any](ctx context.Context, s *Shared, k SharedKey) (T, bool) {
	var v T
	if s == nil {
		return v, false
	}
	raw, ok := s.store.Get(ctx, k)
	if !ok || json.Unmarshal(raw, &v) != nil {
		var zero T
		return zero, false
	}
	return v, true
}

// Put shares v under k for ttl unless a value is shared there already
// (sharedstate.Store.Add): writing back what was read never extends its
// life. A value that does not encode is not shared.
func (s *Shared) Put(ctx context.Context, k SharedKey, v any, ttl time.Duration) {
	if s == nil {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.store.Add(ctx, k, raw, ttl)
}

// Delete removes the shared value under k.
func (s *Shared) Delete(ctx context.Context, k SharedKey) {
	if s != nil {
		s.store.Delete(ctx, k)
	}
}

// Load reads through the shared level: a value another replica read is
// decoded; otherwise one replica reads (read) while the others wait for
// its value (sharedstate.Store.Load). keep says whether a read value may
// be shared. With no shared level, or a shared value that does not
// decode, read runs directly.
func Load[T any](ctx context.Context, s *Shared, k SharedKey, ttl time.Duration, read func(context.Context) (T, bool, error)) (T, error) {
	if s == nil {
		v, _, err := read(ctx)
		return v, err
	}
	var mine T
	var led bool
	raw, err := s.store.Load(ctx, k, ttl, func(ctx context.Context) ([]byte, bool, error) {
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
		// inner read report that the way it reports its own calls.
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

// Through puts the shared level behind a local cache's load: the load then
// reads what another replica shared under k, or reads for every replica
// and shares the answer for ttl. Without a shared level it is load itself.
func Through[T any](s *Shared, k SharedKey, ttl time.Duration, load func(context.Context) (T, error)) func(context.Context) (T, error) {
	if s == nil {
		return load
	}
	return func(ctx context.Context) (T, error) {
		return Load(ctx, s, k, ttl, func(ctx context.Context) (T, bool, error) {
			v, err := load(ctx)
			return v, err == nil, err
		})
	}
}
