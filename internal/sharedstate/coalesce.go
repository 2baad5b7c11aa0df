// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The coalescing scripts work on an entry and its lock together, in one
// step. Both keys carry the entry's hash tag (keys.go), so in a cluster
// they live in one slot and each script runs on one master.

// claimScript returns the entry, or takes its lock when there is none.
//
// KEYS[1] the entry, KEYS[2] its lock; ARGV[1] the last byte to read,
// ARGV[2] our token, ARGV[3] the lock's life (ms).
// Returns {1, value} for a value, {2, ""} when the lock is ours, {0, ""}
// when another holds it.
var claimScript = redis.NewScript(`
local v = redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[1]))
if v ~= '' then
  return {1, v}
end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', tonumber(ARGV[3])) then
  return {2, ''}
end
return {0, ''}
`)

// pollScript returns the entry, or whether its lock is still held.
//
// KEYS[1] the entry, KEYS[2] its lock; ARGV[1] the last byte to read.
// Returns {1, value} for a value, {0, 1} while the lock is held, {0, 0}
// when neither is there.
var pollScript = redis.NewScript(`
local v = redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[1]))
if v ~= '' then
  return {1, v}
end
return {0, redis.call('EXISTS', KEYS[2])}
`)

// publishScript stores the leader's value, if any, and releases the lock
// if it is still ours, at once: a follower never finds the lock gone
// before the value is there.
//
// KEYS[1] the entry, KEYS[2] its lock; ARGV[1] our token, ARGV[2] the
// framed value ("" for none), ARGV[3] its life (ms).
var publishScript = redis.NewScript(`
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3]))
end
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
end
return 1
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

// What claimScript answered.
const (
	claimedOther = 0
	claimedValue = 1
	claimedLock  = 2
)

// Load returns the shared value under k, or reads it once for every
// replica: the first replica to miss takes a short lock in Redis (in the
// same step as the lookup), reads, stores the value for ttl and unlocks
// (again in one step); the others poll for the value for at most
// Options.CoalesceWait and read directly when it does not come (the leader
// died, the value may not be kept, or Redis failed). Use it only for reads
// whose answer does not depend on who asks beyond k.Fingerprint.
func (s *Store) Load(ctx context.Context, k Key, ttl time.Duration, read Reader) ([]byte, error) {
	if s == nil {
		return readOnly(ctx, read)
	}
	key, err := s.redisKey(k)
	if err != nil {
		s.metrics.lookups.WithLabelValues("invalid_key", resultInvalid).Inc()
		return s.readDirect(ctx, k, ttl, read)
	}
	lock, token := key+suffixLock, leaseID()
	var state int64
	var raw string
	err = s.run(ctx, "coalesce_claim", key, func(ctx context.Context) error {
		var err error
		state, raw, err = pairAnswer(claimScript.Run(ctx, s.client, []string{key, lock},
			headerLen+s.opts.MaxValueBytes, token, s.opts.LockTTL.Milliseconds()))
		if err == nil && (state < claimedOther || state > claimedLock) {
			err = fmt.Errorf("%w: claim script answered %d", errGarbage, state)
		}
		return err
	})
	switch {
	case err != nil:
		s.metrics.lookups.WithLabelValues(k.Kind, resultUnavailable).Inc()
		s.settleLater(ctx, err, key, token)
		return s.readDirect(ctx, k, ttl, read)
	case state == claimedValue:
		v, derr := decodeValue([]byte(raw), s.opts.MaxValueBytes)
		if derr != nil {
			s.metrics.lookups.WithLabelValues(k.Kind, resultInvalid).Inc()
			return s.readDirect(ctx, k, ttl, read)
		}
		s.metrics.lookups.WithLabelValues(k.Kind, resultHit).Inc()
		s.countCoalesce(k.Kind, coalesceHit)
		return v, nil
	}
	s.metrics.lookups.WithLabelValues(k.Kind, resultMiss).Inc()
	if state == claimedLock {
		return s.lead(ctx, k, ttl, key, token, read)
	}
	if v, ok := s.follow(ctx, key); ok {
		s.countCoalesce(k.Kind, coalesceWaited)
		return v, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return s.readDirect(ctx, k, ttl, read)
}

// lead reads for every replica, then stores what may be kept and unlocks
// in one step, even when Redis paused in between (runUngated).
func (s *Store) lead(ctx context.Context, k Key, ttl time.Duration, key, token string, read Reader) ([]byte, error) {
	s.countCoalesce(k.Kind, coalesceLed)
	v, keep, err := read(ctx)
	frame := ""
	if err == nil && keep && ttl > 0 {
		if len(v) > s.opts.MaxValueBytes {
			s.metrics.stores.WithLabelValues(k.Kind, resultTooLarge).Inc()
		} else {
			frame = string(encodeValue(v))
		}
	}
	ttl = min(max(ttl, time.Millisecond), maxTTL)
	perr := s.runUngated(context.WithoutCancel(ctx), "coalesce_publish", key, func(ctx context.Context) error {
		return answerError(publishScript.Run(ctx, s.client, []string{key, key + suffixLock}, token, frame, ttl.Milliseconds()).Err())
	})
	if frame != "" {
		result := resultStored
		if perr != nil {
			result = resultUnavailable
		}
		s.metrics.stores.WithLabelValues(k.Kind, result).Inc()
	}
	if perr != nil {
		s.settleLater(ctx, perr, key, token)
	}
	return v, err
}

// follow polls for the leader's value while the lock is held, at most
// Options.CoalesceWait, one step per poll. ok is false when the value did
// not come.
func (s *Store) follow(ctx context.Context, key string) ([]byte, bool) {
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
		var state int64
		var raw string
		err := s.run(ctx, "coalesce_wait", key, func(ctx context.Context) error {
			var err error
			state, raw, err = pairAnswer(pollScript.Run(ctx, s.client, []string{key, key + suffixLock}, headerLen+s.opts.MaxValueBytes))
			return err
		})
		switch {
		case err != nil:
			return nil, false
		case state == 1:
			v, derr := decodeValue([]byte(raw), s.opts.MaxValueBytes)
			return v, derr == nil
		case raw != "1":
			// The leader finished without a value to share.
			return nil, false
		}
	}
}

// settleLater finishes in the background what a claim or a publish that
// failed after reaching Redis may have left: a claim that timed out still
// runs once a slow server wakes, and a publish that never ran leaves our
// lock; a lock nobody releases would make every replica that misses the
// entry wait CoalesceWait for it until LockTTL ends. It releases the lock
// if it still holds our token (never storing a value late, which would
// outlive its time to live), trying up to settleTries times, the first
// after settleDelay (commands of different connections run in no
// guaranteed order), at most one per pool connection at a time. An
// operation the store did not send (paused after failures) left nothing
// to settle.
func (s *Store) settleLater(ctx context.Context, err error, key, token string) {
	var ue *unavailableError
	if !errors.As(err, &ue) || ue.err == nil {
		return
	}
	select {
	case s.settling <- struct{}{}:
	default:
		return // as many as connections are out already: the locks expire
	}
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer func() { <-s.settling }()
		for i := range settleTries {
			time.Sleep(settleDelay << i)
			if s.conn.closed.Load() {
				return // the store is closed: the lock expires
			}
			if s.runUngated(ctx, "coalesce_settle", key, func(ctx context.Context) error {
				return answerError(publishScript.Run(ctx, s.client, []string{key, key + suffixLock}, token, "", 1).Err())
			}) == nil {
				return
			}
		}
	}()
}

// The background settling of a failed claim or publish.
const (
	settleDelay = 500 * time.Millisecond
	settleTries = 3
)

// readDirect reads without coalescing and shares what may be kept.
func (s *Store) readDirect(ctx context.Context, k Key, ttl time.Duration, read Reader) ([]byte, error) {
	s.countCoalesce(k.Kind, coalesceDirect)
	v, keep, err := read(ctx)
	if err == nil && keep {
		s.Set(context.WithoutCancel(ctx), k, v, ttl)
	}
	return v, err
}

// readOnly is a read without a store.
func readOnly(ctx context.Context, read Reader) ([]byte, error) {
	v, _, err := read(ctx)
	return v, err
}

// pairAnswer reads a script's {number, text} answer; a number in the
// second place comes back as its decimal text.
func pairAnswer(cmd *redis.Cmd) (int64, string, error) {
	if err := cmd.Err(); err != nil {
		return 0, "", answerError(err)
	}
	raw, err := cmd.Slice()
	if err != nil || len(raw) != 2 {
		return 0, "", fmt.Errorf("%w: script answered %T", errGarbage, cmd.Val())
	}
	n, ok := raw[0].(int64)
	if !ok {
		return 0, "", fmt.Errorf("%w: script answered %T first", errGarbage, raw[0])
	}
	switch v := raw[1].(type) {
	case string:
		return n, v, nil
	case int64:
		return n, fmt.Sprint(v), nil
	}
	return 0, "", fmt.Errorf("%w: script answered %T second", errGarbage, raw[1])
}

func (s *Store) countCoalesce(kind, result string) {
	if s != nil {
		s.metrics.coalesced.WithLabelValues(kind, result).Inc()
	}
}
