// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrUnavailable says the shared state could not serve an operation: Redis
// is down, slow, paused after failures, or answered something that does
// not decode. Callers fall back to their local behaviour.
var ErrUnavailable = errors.New("shared state unavailable")

// errGarbage marks an answer of the wrong shape.
var errGarbage = errors.New("answer of an unexpected shape")

// Failure reasons, the values of the errors metric's reason label.
const (
	reasonTimeout     = "timeout"
	reasonUnreachable = "unreachable"
	reasonServer      = "server"
	reasonGarbage     = "garbage"
	reasonProtocol    = "protocol"
)

// unavailableError is ErrUnavailable with the operation and reason.
type unavailableError struct {
	op, reason string
	err        error
}

func (e *unavailableError) Error() string {
	if e.err == nil {
		return "shared state unavailable (" + e.op + ": paused after failures)"
	}
	return "shared state unavailable (" + e.op + ", " + e.reason + "): " + e.err.Error()
}

func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

func (e *unavailableError) Unwrap() error { return e.err }

// run executes one Redis operation on key within Options.Timeout and
// records how it went. A nil error or redis.Nil is an answer; the caller's
// own cancellation comes back as itself and says nothing about Redis;
// anything else is an *unavailableError. key decides whose health gates
// the operation (a cluster's master of its slot); "" is the store's.
func (s *Store) run(ctx context.Context, op, key string, f func(context.Context) error) error {
	if s == nil {
		return &unavailableError{op: op}
	}
	return s.runFor(ctx, op, key, s.opts.Timeout, f)
}

// runFor is run with its own time limit.
func (s *Store) runFor(ctx context.Context, op, key string, timeout time.Duration, f func(context.Context) error) error {
	if s == nil {
		return &unavailableError{op: op}
	}
	shard := s.shardOf(key)
	if !s.health.allowFor(shard, key) {
		s.metrics.fallbacks.WithLabelValues(op).Inc()
		return &unavailableError{op: op}
	}
	return s.attempt(ctx, op, shard, timeout, f)
}

// runUngated is run even while the key's shard pauses after failures: for
// the few operations that finish what Redis accepted moments ago (a
// coalescing leader's value and unlock), which would otherwise leave other
// replicas waiting for a lock nobody releases.
func (s *Store) runUngated(ctx context.Context, op, key string, f func(context.Context) error) error {
	return s.attempt(ctx, op, s.shardOf(key), s.opts.Timeout, f)
}

// shardOf names the shard whose health gates an operation on key: in a
// cluster whose layout is known (after the first answer, go-redis keeps
// it and refreshes it in the background, so this asks no server), the
// master of the key's slot; otherwise the sole shard.
func (s *Store) shardOf(key string) string {
	if s.conn.cluster == nil || key == "" || !s.health.isRouted() {
		return soleShard
	}
	node, err := s.conn.cluster.MasterForKey(context.Background(), key)
	if err != nil {
		return soleShard
	}
	return node.Options().Addr
}

// movedAway reports whether key's slot is served by a master other than
// shard now, by go-redis's own record of the layout (no server is asked).
func (s *Store) movedAway(shard, key string) bool {
	node, err := s.conn.cluster.MasterForKey(context.Background(), key)
	return err == nil && node.Options().Addr != shard
}

// attempt asks Redis and records how it went.
func (s *Store) attempt(ctx context.Context, op, shard string, timeout time.Duration, f func(context.Context) error) error {
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := f(opCtx)
	switch {
	case err == nil || errors.Is(err, redis.Nil):
		s.health.success(shard)
		return err
	case ctx.Err() != nil:
		s.health.abandon(shard)
		return ctx.Err()
	}
	reason := classify(err)
	if s.conn.cluster != nil {
		// Learn the layout again (in the background, at most one at a
		// time): after a failover another master serves the failed one's
		// slots, and paused operations would not tell go-redis so.
		s.conn.cluster.ReloadState(ctx)
	}
	s.health.failure(shard, op, reason)
	s.metrics.errors.WithLabelValues(op, reason).Inc()
	s.metrics.fallbacks.WithLabelValues(op).Inc()
	return &unavailableError{op: op, reason: reason, err: err}
}

// classify names why an operation failed, by error type, never by text.
func classify(err error) string {
	var netErr net.Error
	var opErr *net.OpError
	var redisErr redis.Error
	switch {
	case errors.Is(err, errGarbage):
		return reasonGarbage
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, redis.ErrPoolTimeout),
		errors.As(err, &netErr) && netErr.Timeout():
		return reasonTimeout
	case errors.As(err, &opErr), errors.Is(err, redis.ErrClosed), errors.Is(err, net.ErrClosed),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return reasonUnreachable
	case errors.As(err, &redisErr):
		return reasonServer
	}
	return reasonProtocol
}

// answerError is a script's error: a nil answer (redis.Nil), which none of
// our scripts gives, is garbage; anything else stays as it is.
func answerError(err error) error {
	if errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: nil answer", errGarbage)
	}
	return err
}
