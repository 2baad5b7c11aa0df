// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// DefaultInterval is how often the watched file is read again.
const DefaultInterval = time.Second

// openFlags open the file without ever waiting on a FIFO or a device.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// Load reads and parses an instances file: a regular file of at most
// MaxFileBytes, judged on the opened descriptor before a byte is read.
func Load(path string) (Set, error) {
	data, err := readFile(path)
	if err != nil {
		return Set{}, err
	}
	set, err := Parse(data)
	if err != nil {
		return Set{}, fmt.Errorf("instances file %s: %w", path, err)
	}
	return set, nil
}

// readFile reads the file within the size bound.
func readFile(path string) ([]byte, error) {
	return readBounded(path, "instances file", MaxFileBytes)
}

// readBounded reads what (the instances file, or a key file it names) at
// path: opened without waiting on a FIFO or a device, judged a regular file
// of at most limit bytes on the opened descriptor, and read within that
// bound.
func readBounded(path, what string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s: not a regular file (%s)", what, path, info.Mode().Type())
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s %s: %d bytes, more than the %d it may hold", what, path, info.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s %s grew past %d bytes while read", what, path, limit)
	}
	return data, err
}

// Watcher reads an instances file again when it changes (looked at every
// Interval) or when the process gets SIGHUP, and hands every new good
// version to Apply. A file that cannot be read or parsed, or a version
// Apply refuses, keeps the last good one: the reason is logged once (the
// file holds no secrets, only paths). It is safe for concurrent use.
type Watcher struct {
	path     string
	log      *slog.Logger
	interval time.Duration
	apply    func(Set) error

	mu      sync.Mutex
	sum     [sha256.Size]byte // of the content in service
	refused [sha256.Size]byte // of the content last refused
	current Set
	failure string // the problem last logged; "" when the file is good
}

// WatcherOptions configures NewWatcher.
type WatcherOptions struct {
	// Path is the instances file.
	Path string
	// Apply takes each new good version; an error keeps the last good one.
	Apply func(Set) error
	// Logger receives reloads and their problems; nil discards them.
	Logger *slog.Logger
	// Interval overrides DefaultInterval.
	Interval time.Duration
}

// NewWatcher loads the file and applies it: a start fails on a file that
// is not good, since there is no last good version to keep.
func NewWatcher(o WatcherOptions) (*Watcher, error) {
	w := &Watcher{path: o.Path, log: o.Logger, interval: o.Interval, apply: o.Apply}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.interval <= 0 {
		w.interval = DefaultInterval
	}
	data, err := readFile(o.Path)
	if err != nil {
		return nil, err
	}
	set, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("instances file %s: %w", o.Path, err)
	}
	if err := w.apply(set); err != nil {
		return nil, fmt.Errorf("instances file %s: %w", o.Path, err)
	}
	w.sum, w.current = sha256.Sum256(data), set
	w.log.Info("instances file loaded", "file", o.Path, "instances", set.Names())
	return w, nil
}

// Current returns the version last applied.
func (w *Watcher) Current() Set {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current
}

// Run looks at the file every interval and on SIGHUP until ctx ends.
func (w *Watcher) Run(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	tick := time.NewTicker(w.interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			w.check(false)
		case <-hup:
			w.log.Info("SIGHUP: reading the instances file again", "file", w.path)
			w.Check()
		}
	}
}

// Check reads the file once and applies it unless its content is the one
// in service: a version refused before is tried again (what SIGHUP does,
// after a key or CA file it names was fixed).
func (w *Watcher) Check() { w.check(true) }

// check reads the file once and applies a new version; retry tries again
// a version refused before.
func (w *Watcher) check(retry bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, err := readFile(w.path)
	if err != nil {
		w.fail(err)
		return
	}
	sum := sha256.Sum256(data)
	if sum == w.sum {
		w.recovered()
		return
	}
	if sum == w.refused && !retry {
		return
	}
	set, err := Parse(data)
	if err == nil {
		err = w.apply(set)
	}
	if err != nil {
		w.refused = sum
		w.fail(fmt.Errorf("instances file %s: %w", w.path, err))
		return
	}
	w.sum, w.current, w.failure = sum, set, ""
	w.log.Info("instances file reloaded", "file", w.path, "instances", set.Names())
}

// fail logs a problem once: the last good version stays.
func (w *Watcher) fail(err error) {
	if err.Error() == w.failure {
		return
	}
	w.failure = err.Error()
	w.log.Error("instances file not applied: the instances last loaded stay in service until a good file replaces it",
		"file", w.path, "instances", w.current.Names(), "error", w.failure)
}

// recovered says so when the file is readable again with the content in
// service (a broken version was fixed back).
func (w *Watcher) recovered() {
	if w.failure != "" {
		w.failure = ""
		w.log.Info("instances file readable again", "file", w.path)
	}
}
