// SPDX-License-Identifier: Apache-2.0

package instances

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

const (
	fileAB = "instances:\n  - {name: a, url: http://a}\n  - {name: b, url: http://b}\n"
	fileA  = "instances:\n  - {name: a, url: http://a2}\n"
)

// applied records what a watcher hands over; refuse makes it refuse.
type applied struct {
	mu     sync.Mutex
	sets   [][]string
	refuse error
}

func (a *applied) apply(s Set) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refuse != nil {
		return a.refuse
	}
	a.sets = append(a.sets, s.Names())
	return nil
}

func (a *applied) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.sets)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestWatcherReloadsAndKeepsTheLastGoodVersion(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "instances.yaml")
	write(t, path, fileAB)
	var got applied
	var logs testkit.LogBuffer
	w, err := NewWatcher(WatcherOptions{Path: path, Apply: got.apply, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	w.Check()
	if got.count() != 1 {
		t.Fatalf("an unchanged file was applied again: %v", got.sets)
	}
	write(t, path, fileA)
	w.Check()
	if names := w.Current().Names(); got.count() != 2 || strings.Join(names, ",") != "a" {
		t.Fatalf("after a change: current %v, applied %v", names, got.sets)
	}

	// A broken file, a missing one and a version Apply refuses all keep
	// the version in service, each logged once.
	write(t, path, "instances:\n  - {name: a, url: http://a, bogus: 1}\n")
	w.Check()
	w.Check()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	w.Check()
	write(t, path, fileAB)
	got.refuse = errors.New("cannot build b")
	w.Check()
	w.Check() // the refused version is not tried again every look
	if names := w.Current().Names(); got.count() != 2 || strings.Join(names, ",") != "a" {
		t.Fatalf("a bad version replaced the good one: current %v, applied %v", names, got.sets)
	}
	text := logs.String()
	for _, want := range []string{`unknown field \"bogus\"`, "no such file", "cannot build b"} {
		if strings.Count(text, want) != 1 {
			t.Errorf("the log has %q %d times, want once:\n%s", want, strings.Count(text, want), text)
		}
	}

	// Check (SIGHUP's way) tries a refused version again.
	got.refuse = nil
	w.Check()
	if names := w.Current().Names(); strings.Join(names, ",") != "a,b" {
		t.Fatalf("after the retry: %v", names)
	}
}

func TestNewWatcherRefusesABadStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	write(t, good, fileA)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	refuse := func(Set) error { return errors.New("refused") }
	tests := []struct {
		name  string
		path  string
		apply func(Set) error
		want  string
	}{
		{"missing", filepath.Join(dir, "none"), nil, "no such file"},
		{"directory", dir, nil, "not a regular file"},
		{"fifo", fifo, nil, "not a regular file"},
		{"applied and refused", good, refuse, "refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			apply := tt.apply
			if apply == nil {
				apply = func(Set) error { return nil }
			}
			if _, err := NewWatcher(WatcherOptions{Path: tt.path, Apply: apply}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestLoadRefusesALargeFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.yaml")
	write(t, path, "#"+strings.Repeat("x", MaxFileBytes))
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("error %v", err)
	}
}
