// SPDX-License-Identifier: Apache-2.0

//go:build unix

package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	tokenAlice = "alice:alice-token-0123456789abcdef"
	tokenCarol = "carol:carol-token-0123456789abcdef"
	aliceToken = "alice-token-0123456789abcdef"
	carolToken = "carol-token-0123456789abcdef"
)

// brokenShape makes the token file at path unusable in one way.
type brokenShape struct {
	name string
	// make replaces the file at path; it may set c's read hook for a shape
	// a test cannot make for real (an unreadable file when run as root).
	make func(t *testing.T, c *TokenFileCache, path string)
	// keeps is whether the last good tokens stay accepted meanwhile: a
	// broken file keeps them, a removed one accepts nobody (issue 20).
	keeps bool
}

func brokenShapes() []brokenShape {
	return []brokenShape{
		{"fifo", func(t *testing.T, _ *TokenFileCache, path string) {
			replaceWith(t, path, func(tmp string) error { return syscall.Mkfifo(tmp, 0o600) })
		}, true},
		{"directory", func(t *testing.T, _ *TokenFileCache, path string) {
			if err := os.Remove(path); err != nil { // rename(2) puts no directory over a file
				t.Fatal(err)
			}
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"huge file", func(t *testing.T, _ *TokenFileCache, path string) {
			replaceWith(t, path, func(tmp string) error {
				if err := os.WriteFile(tmp, []byte(tokenCarol+"\n"), 0o600); err != nil {
					return err
				}
				return os.Truncate(tmp, 1<<40) // sparse: no disk used, refused from fstat
			})
		}, true},
		{"device", func(t *testing.T, _ *TokenFileCache, path string) {
			replaceWith(t, path, func(tmp string) error { return os.Symlink("/dev/zero", tmp) })
		}, true},
		{"unreadable", func(t *testing.T, c *TokenFileCache, path string) {
			if err := os.Chmod(path, 0); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() == 0 { // root reads a mode-0 file: fail the read as a user would
				c.read = func(string) ([]byte, os.FileInfo, error) { return nil, nil, fs.ErrPermission }
			}
		}, true},
		{"removed", func(t *testing.T, _ *TokenFileCache, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
}

// replaceWith makes a new entry with mk beside path and renames it over
// path, as a deployment tool replaces a file.
func replaceWith(t *testing.T, path string, mk func(tmp string) error) {
	t.Helper()
	tmp := path + ".new"
	if err := mk(tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// writeGood renames a regular file holding only carol over path.
func writeGood(t *testing.T, path string) {
	t.Helper()
	_ = os.Chmod(path, 0o600)
	_ = os.RemoveAll(path)
	replaceWith(t, path, func(tmp string) error { return os.WriteFile(tmp, []byte(tokenCarol+"\n"), 0o600) })
}

// TestTokenFileBrokenShapes is attack 6 of issue 28 and its relatives: the
// token file (alice) is replaced by something that is not a usable file,
// later by a regular file holding only carol. No look at the broken file
// blocks (a FIFO's open(2) waited for a writer forever, and the reload lock
// with it); a broken file keeps alice, with one log line saying why and no
// token; a removed one accepts nobody; the good file then lets carol in and
// keeps alice out.
func TestTokenFileBrokenShapes(t *testing.T) {
	t.Parallel()
	for _, shape := range brokenShapes() {
		t.Run(shape.name, func(t *testing.T) {
			t.Parallel()
			c, path, clk, logs := tokenFile(t, tokenAlice+"\n")
			if !accepts(c, aliceToken) {
				t.Fatal("alice not accepted from the first file")
			}
			shape.make(t, c, path)
			for range 3 {
				clk.Advance(DefaultContentCheck)
				if got := acceptsOrUnblock(t, c, path, aliceToken); got != shape.keeps {
					t.Fatalf("alice accepted = %v with the file %s, want %v", got, shape.name, shape.keeps)
				}
			}
			if accepts(c, carolToken) {
				t.Fatal("carol accepted before any file named her")
			}
			if n := strings.Count(logs.String(), `"level":"ERROR"`); n != 1 {
				t.Errorf("%d error lines for three looks at one broken file, want 1:\n%s", n, logs)
			}
			c.read = nil
			writeGood(t, path)
			clk.Advance(DefaultContentCheck)
			if !accepts(c, carolToken) || accepts(c, aliceToken) {
				t.Fatal("after the good file: carol must be in and alice out")
			}
			if strings.Contains(logs.String(), aliceToken) || strings.Contains(logs.String(), carolToken) {
				t.Errorf("the log carries a token:\n%s", logs)
			}
		})
	}
}

// TestTokenFileSymlinkSwap: a Kubernetes-style secret volume (the file is
// a symbolic link into a directory swapped by renaming a link) is followed
// to the new version, and a swap to a FIFO neither blocks nor drops the
// tokens in place.
func TestTokenFileSymlinkSwap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	version := func(name string, mk func(string) error) {
		if err := os.Mkdir(filepath.Join(dir, name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := mk(filepath.Join(dir, name, "tokens")); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "..data.new")
		if err := os.Symlink(name, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(link, filepath.Join(dir, "..data")); err != nil {
			t.Fatal(err)
		}
	}
	write := func(content string) func(string) error {
		return func(p string) error { return os.WriteFile(p, []byte(content), 0o600) }
	}
	version("v1", write(tokenAlice+"\n"))
	path := filepath.Join(dir, "tokens")
	if err := os.Symlink(filepath.Join("..data", "tokens"), path); err != nil {
		t.Fatal(err)
	}
	c, _, clk, _ := tokenFile(t, "")
	c.Path = path
	if !accepts(c, aliceToken) {
		t.Fatal("alice not accepted through the link")
	}
	version("v2", func(p string) error { return syscall.Mkfifo(p, 0o600) })
	clk.Advance(DefaultContentCheck)
	if !acceptsOrUnblock(t, c, path, aliceToken) {
		t.Fatal("a swap to a FIFO dropped the tokens in place")
	}
	version("v3", write(tokenCarol+"\n"))
	clk.Advance(DefaultContentCheck)
	if !accepts(c, carolToken) || accepts(c, aliceToken) {
		t.Fatal("after the swap to a good file: carol must be in and alice out")
	}
}

// TestTokenFileFirstLoadOfFIFO: a token file that is a FIFO from the
// start accepts nobody and does not block the first check.
func TestTokenFileFirstLoadOfFIFO(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tokens")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	c := &TokenFileCache{Path: path}
	if acceptsOrUnblock(t, c, path, aliceToken) {
		t.Fatal("a FIFO accepted a token")
	}
}

// acceptsOrUnblock is accepts; should it still hang in open(2) of a FIFO
// near the test's own deadline (the failure these tests are about), it
// opens the FIFO for writing so the test ends with a failure, not a hang.
func acceptsOrUnblock(t *testing.T, c *TokenFileCache, path, token string) bool {
	t.Helper()
	result := make(chan bool, 1)
	go func() { result <- accepts(c, token) }()
	deadline, ok := t.Deadline()
	if !ok {
		return <-result
	}
	select {
	case got := <-result:
		return got
	case <-time.After(time.Until(deadline) - 10*time.Second):
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("the token check blocked on the token file")
		return false
	}
}
