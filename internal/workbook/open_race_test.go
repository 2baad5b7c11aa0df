// SPDX-License-Identifier: Apache-2.0

//go:build unix

package workbook

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// swapOnce makes p replace the checked file, between the path checks and
// the open, with what swap puts at its path: the window another process
// has to race the gateway.
func swapOnce(t *testing.T, p *Profiler, swap func(path string) error) {
	t.Helper()
	done := false
	p.beforeOpen = func(tg *target) {
		if done {
			return
		}
		done = true
		if err := os.Remove(tg.path); err != nil {
			t.Errorf("remove: %v", err)
		}
		if err := swap(tg.path); err != nil {
			t.Errorf("swap: %v", err)
		}
	}
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// profileOrUnblock runs Profile; should it still hang in open(2) of the
// FIFO near the test's own deadline (the failure this test is about), it
// opens the FIFO for writing so the test ends with a failure, not a hang.
func profileOrUnblock(t *testing.T, p *Profiler, path string) error {
	t.Helper()
	result := make(chan error, 1)
	go func() {
		_, err := p.Profile(context.Background(), path, "")
		result <- err
	}()
	deadline, ok := t.Deadline()
	if !ok {
		return <-result
	}
	select {
	case err := <-result:
		return err
	case <-time.After(time.Until(deadline) - 10*time.Second):
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatalf("Profile blocked in open(2) on a FIFO swapped in after the path checks")
		return nil
	}
}

// TestSwappedInFIFONeverHoldsASlot: a workbook replaced by a FIFO after
// its path was checked is refused at once (the open does not wait for a
// writer), and the only workbook slot is free for the next read.
func TestSwappedInFIFONeverHoldsASlot(t *testing.T) {
	t.Parallel()
	for _, withRoot := range []bool{false, true} {
		t.Run(map[bool]string{false: "no root", true: "root"}[withRoot], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "book.xlsx")
			if err := os.Rename(smallBook(t, "book.xlsx"), path); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Concurrency: 1}
			if withRoot {
				cfg.Roots = []string{dir}
			}
			p := newProfiler(t, cfg)
			swapOnce(t, p, mkfifo)
			err := profileOrUnblock(t, p, path)
			e, ok := AsError(err)
			if !ok || e.Kind != KindUnavailable || e.Field != FieldPath {
				t.Fatalf("err = %v, want the unavailable 'not a valid workbook' refusal", err)
			}
			// The slot is free again: a sound workbook reads.
			next := filepath.Join(dir, "next.xlsx")
			if err := os.Rename(smallBook(t, "next.xlsx"), next); err != nil {
				t.Fatal(err)
			}
			mustProfile(t, p, next, "")
		})
	}
}

// TestSwappedInDeviceIsRefused: a link to a character device swapped in
// after the checks is refused from the opened descriptor.
func TestSwappedInDeviceIsRefused(t *testing.T) {
	t.Parallel()
	path := smallBook(t, "book.xlsx")
	p := newProfiler(t, Config{})
	swapOnce(t, p, func(path string) error { return os.Symlink("/dev/zero", path) })
	_, err := p.Profile(context.Background(), path, "")
	if e, ok := AsError(err); !ok || e.Kind != KindUnavailable || e.Field != FieldPath {
		t.Fatalf("err = %v, want unavailable on path", err)
	}
}

// TestSwappedInSymlinkNeverLeavesTheRoot: a workbook replaced by a link
// to a file outside --workbook-root after its path was checked is refused
// as outside the roots; a link that stays inside the root still reads.
func TestSwappedInSymlinkNeverLeavesTheRoot(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.xlsx")
	if err := os.Rename(smallBook(t, "secret.xlsx"), secret); err != nil {
		t.Fatal(err)
	}
	sibling := filepath.Join(root, "sibling.xlsx")
	if err := os.Rename(smallBook(t, "sibling.xlsx"), sibling); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, linkTo string
		escapes      bool
	}{
		{"absolute link out", secret, true},
		{"relative link out", filepath.Join("..", filepath.Base(outside), "secret.xlsx"), true},
		{"link inside the root", "sibling.xlsx", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(root, "book"+string(rune('a'+i))+".xlsx")
			if err := os.Rename(smallBook(t, "book.xlsx"), path); err != nil {
				t.Fatal(err)
			}
			p := newProfiler(t, Config{Roots: []string{root}})
			swapOnce(t, p, func(path string) error { return os.Symlink(tt.linkTo, path) })
			wb, err := p.Profile(context.Background(), path, "")
			if !tt.escapes {
				if err != nil {
					t.Fatalf("a link inside the root: %v", err)
				}
				return
			}
			e, ok := AsError(err)
			if !ok || e.Kind != KindUnauthorized {
				t.Fatalf("read a file outside the root through a swapped-in link: wb=%v err=%v", wb != nil, err)
			}
		})
	}
}
