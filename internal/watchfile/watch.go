// SPDX-License-Identifier: Apache-2.0

package watchfile

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// DefaultInterval is how often a watched file is read again.
const DefaultInterval = time.Second

// Options configures a Watcher of a file whose versions are T.
type Options[T any] struct {
	// Path is the file.
	Path string
	// What names the file in errors and log lines ("instances file").
	What string
	// MaxBytes bounds the file.
	MaxBytes int64
	// Parse reads a version of the file.
	Parse func([]byte) (T, error)
	// Apply takes each new good version; an error keeps the last good one.
	Apply func(T) error
	// Describe gives the log attributes of a version (what it holds, no
	// secret); nil logs none.
	Describe func(T) []any
	// Logger receives reloads and their problems; nil discards them.
	Logger *slog.Logger
	// Interval overrides DefaultInterval.
	Interval time.Duration
}

// Watcher reads a file again when it changes (looked at every Interval)
// or when the process gets SIGHUP, and hands every new good version to
// Apply. A change seen by the interval's look is applied once the next
// look finds the same content: a file an editor or a script rewrites in
// place can be read half written, and a prefix of a file can be a good
// version that says something else (a rule's subject u12 cut to u1). A file that cannot be read or parsed, or a version Apply refuses,
// keeps the last good one: the reason is logged once (the files watched
// hold no secrets, only paths). It is safe for concurrent use.
type Watcher[T any] struct {
	o   Options[T]
	log *slog.Logger

	mu      sync.Mutex
	sum     [sha256.Size]byte // of the content in service
	refused [sha256.Size]byte // of the content last refused
	seen    [sha256.Size]byte // of the content the last look read
	current T
	failure string // the problem last logged; "" when the file is good
}

// New loads the file and applies it: a start fails on a file that is not
// good, since there is no last good version to keep.
func New[T any](o Options[T]) (*Watcher[T], error) {
	w := &Watcher[T]{o: o, log: o.Logger}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.o.Interval <= 0 {
		w.o.Interval = DefaultInterval
	}
	data, err := Read(o.Path, o.What, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	v, err := o.Parse(data)
	if err == nil {
		err = o.Apply(v)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", o.What, o.Path, err)
	}
	w.sum, w.current = sha256.Sum256(data), v
	w.log.Info(o.What+" loaded", w.attrs(v)...)
	return w, nil
}

// Load reads and parses the file once, within its bound.
func Load[T any](path, what string, maxBytes int64, parse func([]byte) (T, error)) (T, error) {
	var zero T
	data, err := Read(path, what, maxBytes)
	if err != nil {
		return zero, err
	}
	v, err := parse(data)
	if err != nil {
		return zero, fmt.Errorf("%s %s: %w", what, path, err)
	}
	return v, nil
}

// attrs are the log attributes of a line about version v.
func (w *Watcher[T]) attrs(v T) []any {
	attrs := []any{"file", w.o.Path}
	if w.o.Describe != nil {
		attrs = append(attrs, w.o.Describe(v)...)
	}
	return attrs
}

// Current returns the version last applied.
func (w *Watcher[T]) Current() T {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current
}

// Run looks at the file every interval and on SIGHUP until ctx ends.
func (w *Watcher[T]) Run(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	tick := time.NewTicker(w.o.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			w.check(false)
		case <-hup:
			w.log.Info("SIGHUP: reading the "+w.o.What+" again", "file", w.o.Path)
			w.Check()
		}
	}
}

// Check reads the file once and applies it unless its content is the one
// in service: a version refused before is tried again (what SIGHUP does,
// after a key or CA file it names was fixed).
func (w *Watcher[T]) Check() { w.check(true) }

// check reads the file once and applies a new version read the same on
// the look before; retry (SIGHUP: the operator says the file is written)
// applies a new version at once and tries again a version refused before.
func (w *Watcher[T]) check(retry bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, err := Read(w.o.Path, w.o.What, w.o.MaxBytes)
	if err != nil {
		w.fail(err)
		return
	}
	sum := sha256.Sum256(data)
	last := w.seen
	w.seen = sum
	if sum == w.sum {
		w.recovered()
		return
	}
	if sum == w.refused && !retry {
		return
	}
	if !retry && sum != last {
		return // applied when the next look reads it again
	}
	v, err := w.o.Parse(data)
	if err == nil {
		err = w.o.Apply(v)
	}
	if err != nil {
		w.refused = sum
		w.fail(fmt.Errorf("%s %s: %w", w.o.What, w.o.Path, err))
		return
	}
	w.sum, w.current, w.failure = sum, v, ""
	w.log.Info(w.o.What+" reloaded", w.attrs(v)...)
}

// fail logs a problem once: the last good version stays.
func (w *Watcher[T]) fail(err error) {
	if err.Error() == w.failure {
		return
	}
	w.failure = err.Error()
	w.log.Error(w.o.What+" not applied: the version last loaded stays in service until a good file replaces it",
		append(w.attrs(w.current), "error", w.failure)...)
}

// recovered says so when the file is readable again with the content in
// service (a broken version was fixed back).
func (w *Watcher[T]) recovered() {
	if w.failure != "" {
		w.failure = ""
		w.log.Info(w.o.What+" readable again", "file", w.o.Path)
	}
}
