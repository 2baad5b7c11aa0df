// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// DefaultLoadTimeout bounds a shared load when Options.LoadTimeout is zero.
const DefaultLoadTimeout = 30 * time.Second

// Options configures a Cache.
type Options[V any] struct {
	// Name identifies the cache in metrics and errors. It is required when
	// Registerer is set.
	Name string
	// MaxEntries is the most values the cache holds; it must be above zero.
	MaxEntries int
	// MaxBytes is the most bytes the cache holds, as SizeOf measures them;
	// zero means no byte bound.
	MaxBytes int64
	// TTL is how long a stored value stays valid; it must be above zero.
	TTL time.Duration
	// SizeOf measures a value. It is required when MaxBytes is above zero;
	// without it every value counts as zero bytes.
	SizeOf func(V) int64
	// StaleFor is how long after expiring a value may still be served by
	// GetOrLoadStale, while one background load refreshes it. An expired
	// value is kept that long (it still counts against the bounds); Get,
	// Peek and GetOrLoad never return it. Zero means no stale window.
	StaleFor time.Duration
	// LoadTimeout bounds one shared load of GetOrLoad, which runs detached
	// from the callers' contexts. Zero means DefaultLoadTimeout.
	LoadTimeout time.Duration
	// Registerer, when set, receives the cache's Prometheus metrics,
	// labelled cache=<Name>.
	Registerer prometheus.Registerer
	// Now replaces the clock, for tests. Nil means time.Now.
	Now func() time.Time
}

// validate reports the first problem of the options, if any.
func (o Options[V]) validate() error {
	switch {
	case o.MaxEntries <= 0:
		return fmt.Errorf("cache %q: MaxEntries must be above zero, got %d", o.Name, o.MaxEntries)
	case o.MaxBytes < 0:
		return fmt.Errorf("cache %q: MaxBytes must not be negative, got %d", o.Name, o.MaxBytes)
	case o.MaxBytes > 0 && o.SizeOf == nil:
		return fmt.Errorf("cache %q: SizeOf is required when MaxBytes is set", o.Name)
	case o.TTL <= 0:
		return fmt.Errorf("cache %q: TTL must be above zero, got %s", o.Name, o.TTL)
	case o.StaleFor < 0:
		return fmt.Errorf("cache %q: StaleFor must not be negative, got %s", o.Name, o.StaleFor)
	case o.LoadTimeout < 0:
		return fmt.Errorf("cache %q: LoadTimeout must not be negative, got %s", o.Name, o.LoadTimeout)
	case o.Registerer != nil && o.Name == "":
		return errors.New("cache: Name is required when Registerer is set")
	}
	return nil
}

// withDefaults fills the optional fields.
func (o Options[V]) withDefaults() Options[V] {
	if o.SizeOf == nil {
		o.SizeOf = func(V) int64 { return 0 }
	}
	if o.LoadTimeout == 0 {
		o.LoadTimeout = DefaultLoadTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
