// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrBusy says every slot of a Semaphore stayed taken for the whole wait.
var ErrBusy = errors.New("shared concurrency budget exhausted")

// acquireScript takes a slot of a semaphore kept as a sorted set of lease
// IDs scored by their expiry (milliseconds of the server's clock): expired
// leases are dropped first, so a crashed replica's slots come back when
// their leases end.
//
// KEYS[1] the set; ARGV[1] limit; ARGV[2] lease (ms); ARGV[3] lease ID.
// Returns 1 when the slot is taken, 0 when all are.
var acquireScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], string.format('%.0f', now + lease), ARGV[3])
redis.call('PEXPIRE', KEYS[1], 2 * lease)
return 1
`)

// renewScript extends the leases this replica still holds; a lease that
// already expired and was dropped is not brought back (XX).
//
// KEYS[1] the set; ARGV[1] lease (ms); ARGV[2...] lease IDs.
// Returns how many leases were extended.
var renewScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local score = string.format('%.0f', now + lease)
local n = 0
for i = 2, #ARGV do
  n = n + redis.call('ZADD', KEYS[1], 'XX', 'CH', score, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], 2 * lease)
return n
`)

// Polling bounds while waiting for a slot.
const (
	pollMin = 5 * time.Millisecond
	pollMax = 50 * time.Millisecond
)

// maxRenewBatch bounds the lease IDs one renewal sends.
const maxRenewBatch = 512

// Semaphore is a concurrency budget shared by every replica: at most limit
// slots are held at once, cluster-wide. Each slot is a lease that the
// holding replica renews while it holds it, so a replica that dies frees
// its slots within one lease period.
type Semaphore struct {
	s     *Store
	key   string
	limit int
	lease time.Duration

	mu     sync.Mutex
	held   map[string]struct{}
	done   chan struct{}
	closed bool
}

// Semaphore returns the shared budget called name with limit slots and
// the given lease period (at least a second). Its renewal stops with
// Store.Close.
func (s *Store) Semaphore(name string, limit int, lease time.Duration) (*Semaphore, error) {
	if limit < 1 {
		return nil, fmt.Errorf("shared semaphore: limit must be at least 1, got %d", limit)
	}
	if lease < time.Second || lease > maxTTL {
		return nil, fmt.Errorf("shared semaphore: lease must be between 1s and %s, got %s", maxTTL, lease)
	}
	m := &Semaphore{s: s, key: s.taggedKey(familySemaphore, hashName(name)), limit: limit, lease: lease,
		held: map[string]struct{}{}, done: make(chan struct{})}
	if s != nil {
		s.mu.Lock()
		s.semaphores = append(s.semaphores, m)
		s.mu.Unlock()
		go m.renewLoop()
	}
	return m, nil
}

// Acquire takes a slot, polling while all are taken until ctx ends or
// maxWait passes (then ErrBusy). ErrUnavailable means Redis could not
// decide: the caller goes on under its local budget alone. release gives
// the slot back; it is safe to call more than once.
func (m *Semaphore) Acquire(ctx context.Context, maxWait time.Duration) (release func(), err error) {
	id := leaseID()
	deadline := time.Now().Add(maxWait)
	pause := pollMin
	for {
		ok, err := m.tryAcquire(ctx, id)
		if err != nil {
			return nil, err
		}
		if ok {
			return m.releaser(id), nil
		}
		wait := min(pause+rand.N(pause), time.Until(deadline))
		if wait <= 0 {
			return nil, ErrBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		pause = min(2*pause, pollMax)
	}
}

func (m *Semaphore) tryAcquire(ctx context.Context, id string) (bool, error) {
	m.mu.Lock()
	m.held[id] = struct{}{} // before the script runs, so a renewal cannot miss it
	m.mu.Unlock()
	var got int64
	err := m.s.run(ctx, "semaphore_acquire", m.key, func(ctx context.Context) error {
		cmd := acquireScript.Run(ctx, m.s.client, []string{m.key}, m.limit, m.lease.Milliseconds(), id)
		if err := cmd.Err(); err != nil {
			return answerError(err)
		}
		n, err := cmd.Int64()
		if err != nil || n < 0 || n > 1 {
			return fmt.Errorf("%w: semaphore script answered %v", errGarbage, cmd.Val())
		}
		got = n
		return nil
	})
	if err != nil || got == 0 {
		m.forget(id)
	}
	return got == 1, err
}

// releaser returns the slot's release function.
func (m *Semaphore) releaser(id string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			m.forget(id)
			// A failed release only leaves the lease to expire.
			_ = m.s.run(context.Background(), "semaphore_release", m.key, func(ctx context.Context) error {
				return m.s.client.ZRem(ctx, m.key, id).Err()
			})
		})
	}
}

func (m *Semaphore) forget(id string) {
	m.mu.Lock()
	delete(m.held, id)
	m.mu.Unlock()
}

// renewLoop extends this replica's leases every third of a lease period.
func (m *Semaphore) renewLoop() {
	t := time.NewTicker(m.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-m.done:
			return
		case <-t.C:
			m.renew()
		}
	}
}

func (m *Semaphore) renew() {
	m.mu.Lock()
	ids := make([]string, 0, len(m.held))
	for id := range m.held {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	for batch := range slices.Chunk(ids, maxRenewBatch) {
		args := make([]any, 0, len(batch)+1)
		args = append(args, m.lease.Milliseconds())
		for _, id := range batch {
			args = append(args, id)
		}
		_ = m.s.run(context.Background(), "semaphore_renew", m.key, func(ctx context.Context) error {
			return answerError(renewScript.Run(ctx, m.s.client, []string{m.key}, args...).Err())
		})
	}
}

// stop ends the renewal; held leases then expire on their own.
func (m *Semaphore) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		close(m.done)
	}
}

// leaseID is a random lease identifier.
func leaseID() string {
	var b [12]byte
	_, _ = crand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}
