// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// Store is a connection to the shared Redis. It is safe for concurrent use;
// the zero value is not usable, and a nil *Store is a store that is always
// unavailable (every method falls back), so callers need no nil checks.
type Store struct {
	opts    Options
	client  *redis.Client
	metrics *metrics
	health  *health
	prefix  string // "dgw:v1:<scope hash>:"
	view    bool   // made by Scoped: the connections are another Store's

	mu         sync.Mutex
	semaphores []*Semaphore
}

// Open prepares a Store. It does not contact Redis: the first operation
// does, and an unreachable server only makes operations fall back.
func Open(opts Options) (*Store, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	ro, err := clientOptions(opts)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(opts.Registerer)
	if err != nil {
		return nil, err
	}
	silenceClientLogger()
	return &Store{
		opts:    opts,
		client:  redis.NewClient(ro),
		metrics: m,
		health:  newHealth(opts, m),
		prefix:  keyPrefix(opts.Scope),
	}, nil
}

// clientOptions turns the URL and the password file into go-redis options:
// RESP2 (understood by every Redis and Valkey), at most one quick retry
// (the caller falls back instead), timeouts from Options.Timeout, no
// optional handshakes.
func clientOptions(opts Options) (*redis.Options, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("shared state: %q is not a redis:// or rediss:// URL", redact.URL(opts.URL))
	}
	ro, err := redis.ParseURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("shared state: %q: %w", redact.URL(opts.URL), redactErr(err, opts.URL))
	}
	if opts.PasswordFile != "" {
		pw := newPasswordFile(opts.PasswordFile)
		if _, err := pw.read(); err != nil {
			return nil, err
		}
		user := ro.Username
		ro.Password = ""
		ro.CredentialsProviderContext = func(context.Context) (string, string, error) {
			p, err := pw.read()
			return user, p, err
		}
	}
	ro.Protocol = 2
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	// One quick retry: after Redis restarts, every pooled connection fails
	// once (EOF) before a fresh one is dialled; without the retry each of
	// them would count as Redis being down. The operation's own deadline
	// still bounds both tries.
	ro.MaxRetries = 1
	ro.MinRetryBackoff = time.Millisecond
	ro.MaxRetryBackoff = 5 * time.Millisecond
	ro.DialTimeout = max(opts.Timeout, minDialTimeout)
	ro.ReadTimeout = opts.Timeout
	ro.WriteTimeout = opts.Timeout
	ro.ContextTimeoutEnabled = true
	ro.PoolSize = opts.PoolSize
	ro.PoolTimeout = opts.Timeout
	ro.ClientName = "dagu-mcp-gateway"
	return ro, nil
}

// minDialTimeout lets a TLS handshake finish even with a short operation
// timeout; the operation itself still gives up at its own deadline.
const minDialTimeout = 500 * time.Millisecond

// silenceOnce keeps go-redis's own logger quiet: it would print a line per
// failed connection, and the Store already says so, rate-limited.
var silenceOnce sync.Once

func silenceClientLogger() {
	silenceOnce.Do(func() { redis.SetLogger(quietLogger{}) })
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

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
	return &Store{opts: o, client: s.client, metrics: s.metrics, health: s.health, prefix: keyPrefix(scope), view: true}
}

// URL is the configured URL with any password replaced by "xxxxx".
func (s *Store) URL() string {
	if s == nil {
		return ""
	}
	return redact.URL(s.opts.URL)
}

// keyPrefix is the namespace of every key: a format version and a hash of
// the scope, so gateways in front of different Dagus never share entries.
func keyPrefix(scope string) string {
	sum := sha256.Sum256([]byte(scope))
	return "dgw:v1:" + hex.EncodeToString(sum[:6]) + ":"
}

// prefixOrEmpty is the key prefix of a store that may be nil.
func (s *Store) prefixOrEmpty() string {
	if s == nil {
		return ""
	}
	return s.prefix
}
