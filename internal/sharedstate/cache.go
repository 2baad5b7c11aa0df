// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"time"
)

// Cache lookup results, the values of the lookups metric's result label.
const (
	resultHit         = "hit"
	resultMiss        = "miss"
	resultInvalid     = "invalid"
	resultUnavailable = "unavailable"
	resultStored      = "stored"
	resultTooLarge    = "too_large"
)

// Get returns the value stored under k, if any. A missing key, a value
// that is not ours, one longer than Options.MaxValueBytes and any failure
// of Redis are all misses (ok false): the caller reads from its source.
// At most MaxValueBytes plus a frame header is ever read from Redis.
func (s *Store) Get(ctx context.Context, k Key) (value []byte, ok bool) {
	return s.get(ctx, k, true)
}

// get is Get; count false keeps a coalescing follower's polls out of the
// lookup metric.
func (s *Store) get(ctx context.Context, k Key, count bool) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	key, err := s.redisKey(k)
	if err != nil {
		s.metrics.lookups.WithLabelValues("invalid_key", resultInvalid).Inc()
		return nil, false
	}
	result := func(r string) {
		if count {
			s.metrics.lookups.WithLabelValues(k.Kind, r).Inc()
		}
	}
	var raw string
	err = s.run(ctx, "cache_get", key, func(ctx context.Context) error {
		var err error
		raw, err = s.client.GetRange(ctx, key, 0, int64(headerLen+s.opts.MaxValueBytes)).Result()
		return err
	})
	switch {
	case errors.Is(err, ErrUnavailable):
		result(resultUnavailable)
		return nil, false
	case err != nil || raw == "":
		result(resultMiss)
		return nil, false
	}
	v, err := decodeValue([]byte(raw), s.opts.MaxValueBytes)
	if err != nil {
		result(resultInvalid)
		return nil, false
	}
	result(resultHit)
	return v, true
}

// Set stores value under k for ttl (at most a day). A value longer than
// Options.MaxValueBytes is not stored; a failure of Redis is counted and
// otherwise ignored: the shared cache is only ever a second level.
func (s *Store) Set(ctx context.Context, k Key, value []byte, ttl time.Duration) {
	s.store(ctx, k, value, ttl, false)
}

// Add is Set when nothing is stored under k yet: a value already there
// keeps its content and its expiry, so writing back what was read never
// extends a value's life.
func (s *Store) Add(ctx context.Context, k Key, value []byte, ttl time.Duration) {
	s.store(ctx, k, value, ttl, true)
}

func (s *Store) store(ctx context.Context, k Key, value []byte, ttl time.Duration, onlyNew bool) {
	if s == nil || ttl <= 0 {
		return
	}
	key, err := s.redisKey(k)
	if err != nil {
		s.metrics.stores.WithLabelValues("invalid_key", resultInvalid).Inc()
		return
	}
	if len(value) > s.opts.MaxValueBytes {
		s.metrics.stores.WithLabelValues(k.Kind, resultTooLarge).Inc()
		return
	}
	frame := encodeValue(value)
	ttl = min(ttl, maxTTL)
	err = s.run(ctx, "cache_set", key, func(ctx context.Context) error {
		if onlyNew {
			return s.client.SetNX(ctx, key, frame, ttl).Err()
		}
		return s.client.Set(ctx, key, frame, ttl).Err()
	})
	result := resultStored
	if err != nil {
		result = resultUnavailable
	}
	s.metrics.stores.WithLabelValues(k.Kind, result).Inc()
}

// Delete drops the value under k, for callers that learn it is stale. A
// failure of Redis leaves the value to expire.
func (s *Store) Delete(ctx context.Context, k Key) {
	if s == nil {
		return
	}
	key, err := s.redisKey(k)
	if err != nil {
		return
	}
	_ = s.run(ctx, "cache_delete", key, func(ctx context.Context) error {
		return s.client.Del(ctx, key).Err()
	})
}
