// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Store is a connection to the shared Redis. It is safe for concurrent use;
// the zero value is not usable, and a nil *Store is a store that is always
// unavailable (every method falls back), so callers need no nil checks.
type Store struct {
	opts    Options
	conn    *connection
	client  redis.UniversalClient // conn.client
	metrics *metrics
	health  *health
	scope   string // the scope's hash, inside every key's hash tag
	view    bool   // made by Scoped: the connections are another Store's

	mu         sync.Mutex
	semaphores []*Semaphore
	// settling bounds the background settling of failed claims and
	// publishes (coalesce.go) to the pool's size.
	settling chan struct{}
}

// Open prepares a Store for the URL's topology (Options.URL): one server,
// a Redis Cluster or a Sentinel-watched master. It does not contact Redis:
// the first operation does, and an unreachable server only makes
// operations fall back.
func Open(opts Options) (*Store, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	conn, err := connect(opts)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(opts.Registerer)
	if err != nil {
		_ = conn.client.Close()
		return nil, err
	}
	silenceClientLogger()
	s := &Store{opts: opts, conn: conn, client: conn.client, metrics: m, scope: scopeTag(opts.Scope),
		settling: make(chan struct{}, opts.PoolSize)}
	s.health = newHealth(opts, conn.display, m, s.nodeName)
	if conn.cluster != nil {
		s.health.moved = s.movedAway
	}
	return s, nil
}

// nodeName shows a shard as a node address: a cluster's shards are their
// masters' addresses; the sole shard is the node last dialled.
func (s *Store) nodeName(shard string) string {
	if shard != soleShard {
		return shard
	}
	return s.conn.node.get()
}

// redactErr removes the URL's password from an error's text.
func redactErr(err error, raw string) error {
	u, perr := url.Parse(raw)
	if perr != nil || u.User == nil {
		return err
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "xxxxx"))
}

// Close closes the connections and stops the semaphores' lease renewal.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	sems := s.semaphores
	s.semaphores = nil
	s.mu.Unlock()
	for _, m := range sems {
		m.stop()
	}
	if s.view {
		return nil
	}
	s.conn.closed.Store(true)
	return s.client.Close()
}

// Scoped returns a view of s whose keys live under another scope (each
// Dagu server of a gateway that fronts several has its own): it shares s's
// connections, health and metrics. Closing the view stops only its own
// semaphores; s's Close ends the connections. A nil s gives nil.
func (s *Store) Scoped(scope string) *Store {
	if s == nil {
		return nil
	}
	o := s.opts
	o.Scope = scope
	return &Store{opts: o, conn: s.conn, client: s.client, metrics: s.metrics, health: s.health, scope: scopeTag(scope), view: true,
		settling: s.settling}
}

// URL is the configured URL with any password replaced by "xxxxx".
func (s *Store) URL() string {
	if s == nil {
		return ""
	}
	return s.conn.display
}

// Topology is how the shared Redis is deployed, as the URL named it.
func (s *Store) Topology() Topology {
	if s == nil {
		return ""
	}
	return s.conn.topology
}
