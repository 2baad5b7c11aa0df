// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/sharedstate"
)

// Kinds of shared cache entries: the second level behind the local caches
// of the same names.
const (
	kindRun   = "run"   // parts of final runs
	kindSpec  = "spec"  // DAG specs
	kindNames = "names" // the DAG name list
	kindList  = "list"  // the list micro-cache
)

// entryKey is the key of a cache entry, one struct for both levels: the
// local store keys an entry by the struct itself (within one Dagu
// server's scope, see scoped), the shared level by what shared derives
// from it. cachekeys_test.go fails when a field reaches one and not the
// other.
type entryKey interface {
	comparable
	shared() sharedstate.Key
}

// sharedLevel is the caches' second level: the replicas' shared store,
// one Dagu server's view of it (sharedstate.Store.Scoped), so two servers
// never read each other's entries. A nil *sharedLevel shares nothing;
// every method then does nothing or reads directly.
//
// In passthrough every entry's shared key also carries its credential's
// grant epoch (grantBook): when Dagu narrows what a credential may see,
// its epoch changes and the entries shared under the old one are never
// found again, on any replica.
type sharedLevel struct {
	store  *sharedstate.Store
	grants *grantBook // nil: no epochs (service mode)
}

// newSharedLevel returns the shared level over store (nil: none).
func newSharedLevel(store *sharedstate.Store, grants *grantBook) *sharedLevel {
	if store == nil {
		return nil
	}
	return &sharedLevel{store: store, grants: grants}
}

// key is k with its credential's grant epoch, the key an entry is shared
// under.
func (s *sharedLevel) key(k sharedstate.Key) sharedstate.Key {
	if s.grants == nil {
		return k
	}
	k.Parts = append(slices.Clip(k.Parts), "grant:"+s.grants.epoch(k.Fingerprint))
	return k
}

// up reports whether the shared level is on and its store is answering.
func (s *sharedLevel) up() bool { return s != nil && s.store.Up() }

// sharedGet decodes the shared value under k into a T. A value that does
// not decode (another gateway version wrote it) is a miss.
func sharedGet[T any](ctx context.Context, s *sharedLevel, k sharedstate.Key) (T, bool) {
	var v T
	if s == nil {
		return v, false
	}
	raw, ok := s.store.Get(ctx, s.key(k))
	if !ok || json.Unmarshal(raw, &v) != nil {
		var zero T
		return zero, false
	}
	return v, true
}

// put shares v under k for ttl unless a value is shared there already
// (sharedstate.Store.Add): writing back what was read never extends its
// life. A value that does not encode is not shared.
func (s *sharedLevel) put(ctx context.Context, k sharedstate.Key, v any, ttl time.Duration) {
	if s == nil {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.store.Add(ctx, s.key(k), raw, ttl)
}

// delete removes the shared value under k.
func (s *sharedLevel) delete(ctx context.Context, k sharedstate.Key) {
	if s != nil {
		s.store.Delete(ctx, s.key(k))
	}
}

// sharedLoad reads through the shared level: a value another replica read
// is decoded; otherwise one replica reads (read) while the others wait
// for its value (sharedstate.Store.Load). keep says whether a read value
// may be shared. With no shared level, or a shared value that does not
// decode, read runs directly.
func sharedLoad[T any](ctx context.Context, s *sharedLevel, k sharedstate.Key, ttl time.Duration, read func(context.Context) (T, bool, error)) (T, error) {
	if s == nil {
		v, _, err := read(ctx)
		return v, err
	}
	var mine T
	var led bool
	raw, err := s.store.Load(ctx, s.key(k), ttl, func(ctx context.Context) ([]byte, bool, error) {
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

// through puts the shared level behind a local cache's load: the load then
// reads what another replica shared under k's shared key, or reads for
// every replica and shares the answer for ttl. Without a shared level it
// is load itself.
func through[K entryKey, T any](s *sharedLevel, k K, ttl time.Duration, load func(context.Context) (T, error)) func(context.Context) (T, error) {
	if s == nil {
		return load
	}
	shared := k.shared()
	return func(ctx context.Context) (T, error) {
		return sharedLoad(ctx, s, shared, ttl, func(ctx context.Context) (T, bool, error) {
			v, err := load(ctx)
			return v, err == nil, err
		})
	}
}
