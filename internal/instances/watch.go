// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"log/slog"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/watchfile"
)

// DefaultInterval is how often the watched file is read again.
const DefaultInterval = watchfile.DefaultInterval

// what names the instances file in errors and log lines.
const what = "instances file"

// Load reads and parses an instances file: a regular file of at most
// MaxFileBytes, judged on the opened descriptor before a byte is read.
func Load(path string) (Set, error) {
	return watchfile.Load(path, what, MaxFileBytes, Parse)
}

// Watcher reads the instances file again when it changes or on SIGHUP
// (watchfile.Watcher): a broken version keeps the last good one.
type Watcher = watchfile.Watcher[Set]

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
	return watchfile.New(watchfile.Options[Set]{Path: o.Path, What: what, MaxBytes: MaxFileBytes, Parse: Parse, Apply: o.Apply,
		Describe: func(s Set) []any { return []any{"instances", s.Names()} }, Logger: o.Logger, Interval: o.Interval})
}
