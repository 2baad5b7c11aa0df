// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// unlockScript deletes the lock only while it is still ours.
//
// KEYS[1] the lock; ARGV[1] our token. Returns 1 when deleted.
var unlockScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// Reader reads a value from its source. keep reports whether the value
// may be shared (it is immutable, or time-boxed by the TTL); a value that
// may not is returned to this caller only.
type Reader func(ctx context.Context) (value []byte, keep bool, err error)

// Coalescing results, the values of the coalesce metric's result label.
const (
	coalesceHit    = "hit"    // the value was already shared
	coalesceLed    = "led"    // this replica read it for the others
	coalesceWaited = "waited" // another replica read it for this one
	coalesceDirect = "direct" // read directly: no lock, no value in time, or Redis unavailable
)

// Load returns the shared value under k, or reads it once for every
// replica: the first replica to miss takes a short lock in Redis, reads,
// stores the value for ttl and unlocks; the others poll for the value for
// at most Options.CoalesceWait and read directly when it does not come (the leader
// died, the value may not be kept, or Redis failed). Use it only for
// reads whose answer does not depend on who asks beyond k.Fingerprint.
func (s *Store) Load(ctx context.Context, k Key, ttl time.Duration, read Reader) ([]byte, error) {
	if v, ok := s.Get(ctx, k); ok {
		s.countCoalesce(k.Kind, coalesceHit)
		return v, nil
	}
	lock, err := s.lockKey(k)
	if err != nil {
		return s.readDirect(ctx, k, ttl, read)
	}
	token := leaseID()
	var got bool
	err = s.run(ctx, "coalesce_lock", func(ctx context.Context) error {
		var err error
		got, err = s.client.SetNX(ctx, lock, token, s.opts.LockTTL).Result()
		return err
	})
	switch {
	case err != nil:
		return s.readDirect(ctx, k, ttl, read)
	case got:
		return s.lead(ctx, k, ttl, lock, token, read)
	}
	if v, ok := s.follow(ctx, k, lock); ok {
		s.countCoalesce(k.Kind, coalesceWaited)
		return v, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return s.readDirect(ctx, k, ttl, read)
}

// lead reads for every replica, stores what may be kept, then unlocks.
func (s *Store) lead(ctx context.Context, k Key, ttl time.Duration, lock, token string, read Reader) ([]byte, error) {
	defer func() {
		_ = s.runUngated(context.WithoutCancel(ctx), "coalesce_unlock", func(ctx context.Context) error {
			return answerError(unlockScript.Run(ctx, s.client, []string{lock}, token).Err())
		})
	}()
	s.countCoalesce(k.Kind, coalesceLed)
	v, keep, err := read(ctx)
	if err == nil && keep {
		s.store(context.WithoutCancel(ctx), k, v, ttl, false, true)
	}
	return v, err
}

// follow polls for the leader's value while the lock is held, at most
// Options.CoalesceWait. ok is false when the value did not come.
func (s *Store) follow(ctx context.Context, k Key, lock string) ([]byte, bool) {
	deadline := time.Now().Add(s.opts.CoalesceWait)
	pause := pollMin
	for {
		wait := min(pause, time.Until(deadline))
		if wait <= 0 {
			return nil, false
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(wait):
		}
		pause = min(2*pause, pollMax)
		if v, ok := s.get(ctx, k, false); ok {
			return v, true
		}
		var held int64
		err := s.run(ctx, "coalesce_wait", func(ctx context.Context) error {
			var err error
			held, err = s.client.Exists(ctx, lock).Result()
			return err
		})
		if err != nil || held == 0 {
			// The leader finished without a value to share, or Redis
			// failed: one last look, then read directly.
			return s.get(ctx, k, false)
		}
	}
}

// readDirect reads without coalescing and shares what may be kept.
func (s *Store) readDirect(ctx context.Context, k Key, ttl time.Duration, read Reader) ([]byte, error) {
	s.countCoalesce(k.Kind, coalesceDirect)
	v, keep, err := read(ctx)
	if err == nil && keep {
		s.Set(context.WithoutCancel(ctx), k, v, ttl)
	}
	return v, err
}

// lockKey is the coalescing lock of k's entry.
func (s *Store) lockKey(k Key) (string, error) {
	if s == nil {
		return "", errors.New("shared state: no store")
	}
	key, err := s.redisKey(k)
	if err != nil {
		return "", fmt.Errorf("shared state lock: %w", err)
	}
	return key + ":lock", nil
}

func (s *Store) countCoalesce(kind, result string) {
	if s != nil {
		s.metrics.coalesced.WithLabelValues(kind, result).Inc()
	}
}
