// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// clockedFileKey returns FileKey(path) reading a manual clock, and the clock.
func clockedFileKey(path string) (*FileKeySource, *testkit.Clock) {
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	src := FileKey(path)
	src.now = clock.Now
	return src, clock
}
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestKeyFingerprint(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"", "anon"},
		{"dagu_secret", "723862eced3dc75830f61f4d1e7bdd3a"}, // first 32 hex digits of its SHA-256
	}
	for _, tt := range tests {
		if got := KeyFingerprint(tt.key); got != tt.want {
			t.Errorf("KeyFingerprint(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
	if StaticKey(" dagu_secret\n").Fingerprint() != "723862eced3dc75830f61f4d1e7bdd3a" {
		t.Error("StaticKey fingerprint ignores trimming")
	}
}

func TestFileKeyRotation(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "key")
	writeFile(t, path, "dagu_first\n")
	src, clock := clockedFileKey(path)

	steps := []struct {
		name    string
		write   string // new content, if any
		advance time.Duration
		want    string
	}{
		{"first read trims whitespace", "", 0, "dagu_first"},
		{"change inside the recheck interval is not seen yet", "dagu_second_and_longer", 500 * time.Millisecond, "dagu_first"},
		{"change is seen after the interval", "", 600 * time.Millisecond, "dagu_second_and_longer"},
		{"unchanged file keeps the key", "", 2 * time.Second, "dagu_second_and_longer"},
	}
	for _, s := range steps {
		if s.write != "" {
			writeFile(t, path, s.write)
		}
		clock.Advance(s.advance)
		got, err := src.Key()
		if err != nil || got != s.want {
			t.Fatalf("%s: Key() = %q, %v; want %q", s.name, got, err, s.want)
		}
	}
	if src.Fingerprint() != KeyFingerprint("dagu_second_and_longer") {
		t.Error("fingerprint does not follow the rotated key")
	}
}

// TestFileKeySymlinkSwap mimics a Kubernetes secret volume: the key path is
// a symlink through "..data", which is swapped atomically on update.
func TestFileKeySymlinkSwap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, v := range []string{"v1", "v2"} {
		if err := os.Mkdir(filepath.Join(dir, v), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Same length and (possibly) same mtime: only the inode differs.
	writeFile(t, filepath.Join(dir, "v1", "key"), "dagu_aaaa")
	writeFile(t, filepath.Join(dir, "v2", "key"), "dagu_bbbb")
	mustSymlink(t, "v1", filepath.Join(dir, "..data"))
	mustSymlink(t, filepath.Join("..data", "key"), filepath.Join(dir, "key"))

	src, clock := clockedFileKey(filepath.Join(dir, "key"))
	if k, err := src.Key(); err != nil || k != "dagu_aaaa" {
		t.Fatalf("Key() = %q, %v", k, err)
	}
	mustSymlink(t, "v2", filepath.Join(dir, "..data_tmp"))
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	clock.Advance(keyRecheckInterval)
	if k, err := src.Key(); err != nil || k != "dagu_bbbb" {
		t.Fatalf("after swap Key() = %q, %v", k, err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestFileKeyFailures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := FileKey(filepath.Join(dir, "missing"))
	if _, err := missing.Key(); err == nil {
		t.Fatal("missing key file gave no error")
	}
	if missing.Fingerprint() != "anon" {
		t.Error("unreadable key should fingerprint as anon")
	}

	path := filepath.Join(dir, "key")
	writeFile(t, path, "dagu_kept")
	src, clock := clockedFileKey(path)
	if _, err := src.Key(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if k, err := src.Key(); err != nil || k != "dagu_kept" {
		t.Fatalf("after removal Key() = %q, %v; want the last key", k, err)
	}
}

func TestRotatedKeyIsSent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "key")
	writeFile(t, path, "dagu_old")
	src, clock := clockedFileKey(path)
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Key = src })

	for _, want := range []string{"dagu_old", "dagu_new"} {
		writeFile(t, path, want)
		clock.Advance(keyRecheckInterval)
		if _, err := c.Health(context.Background()); err != nil {
			t.Fatal(err)
		}
		reqs := rec.all()
		if got := reqs[len(reqs)-1].Header.Get("Authorization"); got != "Bearer "+want {
			t.Fatalf("Authorization = %q, want Bearer %s", got, want)
		}
	}
}

func TestUnreadableKeySendsNothing(t *testing.T) {
	t.Parallel()
	srv, rec := newServer(t, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, healthJSON) })
	c := newTestClient(t, srv.URL, func(cfg *Config) { cfg.Key = FileKey(filepath.Join(t.TempDir(), "none")) })
	_, err := c.Health(context.Background())
	if kindOf(err) != "credentials" || rec.count() != 0 {
		t.Fatalf("err = %v, requests = %d", err, rec.count())
	}
}
