// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of Options.
const (
	// DefaultRecheckAfter is how long an acceptance is used as it is; a
	// revoked key keeps working at most this long plus one check.
	DefaultRecheckAfter = time.Minute
	// DefaultKnownFor is how long after its last acceptance a key counts
	// as known: it is served verified while it is checked again in the
	// background, never through the lane of unknown keys.
	DefaultKnownFor   = 12 * time.Hour
	DefaultRefusedTTL = 10 * time.Second
	// DefaultChecksPerSecond and DefaultChecksBurst bound the checks of
	// unknown keys per address (per /64 for IPv6).
	DefaultChecksPerSecond = 1.0
	DefaultChecksBurst     = 5
	// DefaultRetryChecksPerSecond and DefaultRetryChecksBurst are each
	// address's (and /48's) bucket for keys that asked before and were
	// refused a check for want of tokens, once its own is spent.
	DefaultRetryChecksPerSecond = 1.0
	DefaultRetryChecksBurst     = 3
	// DefaultRetryWindow is how long a key refused a check counts as
	// retried when it asks again.
	DefaultRetryWindow = time.Minute
	// DefaultNetChecksPerSecond and DefaultNetChecksBurst bound them per
	// IPv6 /48, however many of its /64s the keys come from.
	DefaultNetChecksPerSecond = 2.0
	DefaultNetChecksBurst     = 10
	// DefaultMaxChecksPerSecond and DefaultMaxChecksBurst bound them for
	// the whole process.
	DefaultMaxChecksPerSecond = 20.0
	DefaultMaxChecksBurst     = 40
	// DefaultNewcomerChecksPerSecond and DefaultNewcomerChecksBurst are
	// the reserve of the whole process's lane that only an address (IPv6:
	// a /48) that asked for fewer than DefaultNewcomerTries checks within
	// DefaultNewcomerWindow may take once the rest is spent.
	DefaultNewcomerChecksPerSecond = 5.0
	DefaultNewcomerChecksBurst     = 10
	DefaultNewcomerTries           = 3
	DefaultNewcomerWindow          = 10 * time.Minute
	// DefaultMaxChecksInFlight bounds the checks of unknown keys waiting
	// for Dagu at once, so they never hold more of the REST client's
	// concurrency than that.
	DefaultMaxChecksInFlight = 8
	DefaultMaxCredentials    = 10_000
	DefaultMaxAddresses      = 16_384
	// checkTimeout bounds one check; it does not end with the request
	// that started it, because concurrent requests share it.
	checkTimeout = 10 * time.Second
)

// Options configure a Verifier; zero fields take the defaults.
type Options struct {
	// Check verifies a credential; required.
	Check Check
	// RecheckAfter, KnownFor and RefusedTTL: see the defaults.
	RecheckAfter time.Duration
	KnownFor     time.Duration
	RefusedTTL   time.Duration
	// The lane of unknown keys: per address (IPv6: /64), per IPv6 /48,
	// for the whole process, and the newcomers' reserve of the latter.
	ChecksPerSecond         float64
	ChecksBurst             int
	RetryChecksPerSecond    float64
	RetryChecksBurst        int
	RetryWindow             time.Duration
	NetChecksPerSecond      float64
	NetChecksBurst          int
	MaxChecksPerSecond      float64
	MaxChecksBurst          int
	NewcomerChecksPerSecond float64
	NewcomerChecksBurst     int
	NewcomerTries           int
	NewcomerWindow          time.Duration
	MaxChecksInFlight       int
	// MaxCredentials bounds the cached verdicts, and MaxAddresses the
	// addresses and networks the lane remembers; the least recently used
	// go first.
	MaxCredentials int
	MaxAddresses   int
	// Registerer receives the Verifier's metrics; nil leaves them out.
	Registerer prometheus.Registerer
	// Base is the context of the process's lifetime: background checks
	// end with it (default context.Background()).
	Base context.Context
	// Now replaces the clock (default time.Now).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	setDefault(&o.RecheckAfter, DefaultRecheckAfter)
	setDefault(&o.KnownFor, DefaultKnownFor)
	setDefault(&o.RefusedTTL, DefaultRefusedTTL)
	setDefault(&o.ChecksPerSecond, DefaultChecksPerSecond)
	setDefault(&o.ChecksBurst, DefaultChecksBurst)
	setDefault(&o.RetryChecksPerSecond, DefaultRetryChecksPerSecond)
	setDefault(&o.RetryChecksBurst, DefaultRetryChecksBurst)
	setDefault(&o.RetryWindow, DefaultRetryWindow)
	setDefault(&o.NetChecksPerSecond, DefaultNetChecksPerSecond)
	setDefault(&o.NetChecksBurst, DefaultNetChecksBurst)
	setDefault(&o.MaxChecksPerSecond, DefaultMaxChecksPerSecond)
	setDefault(&o.MaxChecksBurst, DefaultMaxChecksBurst)
	setDefault(&o.NewcomerChecksPerSecond, DefaultNewcomerChecksPerSecond)
	setDefault(&o.NewcomerChecksBurst, DefaultNewcomerChecksBurst)
	setDefault(&o.NewcomerTries, DefaultNewcomerTries)
	setDefault(&o.NewcomerWindow, DefaultNewcomerWindow)
	setDefault(&o.MaxChecksInFlight, DefaultMaxChecksInFlight)
	setDefault(&o.MaxCredentials, DefaultMaxCredentials)
	setDefault(&o.MaxAddresses, DefaultMaxAddresses)
	if o.Base == nil {
		o.Base = context.Background()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// setDefault replaces a zero or negative option with its default.
func setDefault[T int | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
