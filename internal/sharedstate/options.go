// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Defaults applied by Open to zero Options fields.
const (
	// DefaultTimeout bounds one Redis operation. Redis next to the gateway
	// answers in well under a millisecond; anything slower than this is
	// treated as unavailable and the caller falls back.
	DefaultTimeout = 100 * time.Millisecond
	// DefaultMaxValueBytes bounds one cached value before compression.
	DefaultMaxValueBytes = 1 << 20
	// DefaultMaxPause is the longest pause after failures before Redis is
	// asked again.
	DefaultMaxPause = 2 * time.Second
	// DefaultPoolSize bounds the connections to Redis per replica.
	DefaultPoolSize = 32
	// DefaultLockTTL is how long a coalescing lock lives when its holder
	// dies before releasing it.
	DefaultLockTTL = 5 * time.Second
	// DefaultCoalesceWait bounds how long a replica waits for another's
	// read before reading directly.
	DefaultCoalesceWait = 2 * time.Second
	// maxTTL bounds every expiry the package sets.
	maxTTL = 24 * time.Hour
)

// Options configures a Store.
type Options struct {
	// URL names the Redis and its topology (rediss for TLS everywhere;
	// ?ca_file=PATH trusts the authorities in a PEM file, ?skip_verify=true
	// disables certificate checks, tests only):
	//
	//	redis://[user[:password]@]host[:port][/db]        one server
	//	redis+cluster://[user[:password]@]host[:port][,host[:port]...]   Redis Cluster
	//	redis+sentinel://[user[:password]@]host[:port][,host[:port]...]/master-name[/db]
	//
	// A cluster URL names any of its nodes (or a managed service's
	// configuration endpoint), a Sentinel URL its sentinels (port 26379
	// when none is given); the user and password are the Redis servers'.
	URL string
	// PasswordFile, when set, holds the Redis servers' password
	// (surrounding whitespace trimmed); it replaces a password in URL and
	// is read again for every new connection, so a rotated secret is
	// picked up without a restart.
	PasswordFile string
	// SentinelPasswordFile, for a redis+sentinel URL whose sentinels
	// require a password of their own (requirepass in sentinel.conf), holds
	// it. It is read once, at Open.
	SentinelPasswordFile string
	// Scope separates gateways that share one Redis but not one Dagu: it is
	// hashed into every key. Callers pass the Dagu URL.
	Scope string
	// Timeout bounds each operation (default DefaultTimeout).
	Timeout time.Duration
	// MaxValueBytes bounds one cached value (default DefaultMaxValueBytes);
	// larger values are not shared, and a stored value that decodes to more
	// is a miss.
	MaxValueBytes int
	// MaxPause is the longest pause after failures (default DefaultMaxPause).
	MaxPause time.Duration
	// PoolSize bounds the connections (default DefaultPoolSize).
	PoolSize int
	// LockTTL is the life of a coalescing lock (default DefaultLockTTL).
	LockTTL time.Duration
	// CoalesceWait bounds the wait for another replica's read (default
	// DefaultCoalesceWait).
	CoalesceWait time.Duration
	// Registerer, when set, receives the package's Prometheus metrics.
	Registerer prometheus.Registerer
	// Logger receives the rate-limited availability lines; nil discards
	// them. No URL password and no key is ever logged.
	Logger *slog.Logger
	// Now replaces the clock, for tests. Nil means time.Now.
	Now func() time.Time
}

// withDefaults fills the zero fields and checks the rest.
func (o Options) withDefaults() (Options, error) {
	if o.URL == "" {
		return o, errors.New("shared state: URL is required")
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxValueBytes == 0 {
		o.MaxValueBytes = DefaultMaxValueBytes
	}
	if o.MaxPause == 0 {
		o.MaxPause = DefaultMaxPause
	}
	if o.PoolSize == 0 {
		o.PoolSize = DefaultPoolSize
	}
	if o.LockTTL == 0 {
		o.LockTTL = DefaultLockTTL
	}
	if o.CoalesceWait == 0 {
		o.CoalesceWait = DefaultCoalesceWait
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	switch {
	case o.Timeout < 0:
		return o, fmt.Errorf("shared state: timeout must be above zero, got %s", o.Timeout)
	case o.MaxValueBytes < 0 || o.MaxValueBytes > maxEnvelopePayload:
		return o, fmt.Errorf("shared state: max value bytes must be between 1 and %d, got %d", maxEnvelopePayload, o.MaxValueBytes)
	case o.MaxPause < 0:
		return o, fmt.Errorf("shared state: max pause must not be negative, got %s", o.MaxPause)
	case o.LockTTL < 0 || o.LockTTL > maxTTL:
		return o, fmt.Errorf("shared state: lock TTL must be between 0 and %s, got %s", maxTTL, o.LockTTL)
	case o.CoalesceWait < 0:
		return o, fmt.Errorf("shared state: coalesce wait must not be negative, got %s", o.CoalesceWait)
	case o.PoolSize < 0:
		return o, fmt.Errorf("shared state: pool size must be above zero, got %d", o.PoolSize)
	}
	return o, nil
}
