// SPDX-License-Identifier: Apache-2.0

package config

import (
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// Bounds of a token file reload.
const (
	// DefaultContentCheck is how often a token file whose inode, size and
	// modification time look unchanged is read again to compare its
	// content hash (an in-place rewrite can keep all three).
	DefaultContentCheck = time.Second
	// maxTokenFileBytes caps the token file read.
	maxTokenFileBytes = 64 << 20
)

// TokenEntry is one accepted token of a token file.
type TokenEntry struct {
	// Name is the caller a "name:token" line names; "" for a bare token.
	Name string
	// Token is the secret itself (for the log scrubber only).
	Token string
}

// TokenFileCache holds the accepted tokens of an inbound token file and
// reads the file again when it is replaced: a different inode (an atomic
// rename, a Kubernetes secret update), size or modification time is seen
// at once, and an in-place rewrite that keeps all three within
// ContentCheck, by the hash of the content. A reload applies the start-up
// rules: a token that is too short or not printable ASCII is refused, with
// a log line naming its line number (never the token). A file that is
// missing or cannot be read means nobody is accepted, with an error log
// line, until it can be read again. Each entry is hashed once per file
// version; a presented token is found by its digest in a map. It is safe
// for concurrent use.
type TokenFileCache struct {
	// Path is the token file; empty means no file and no tokens.
	Path string
	// Logger receives the reload problems; nil discards them.
	Logger *slog.Logger
	// ContentCheck overrides DefaultContentCheck.
	ContentCheck time.Duration
	// Now replaces the clock (default time.Now).
	Now func() time.Time

	mu       sync.Mutex
	info     os.FileInfo // of the version loaded; nil before a load or after a failure
	sum      [sha256.Size]byte
	checked  time.Time
	failing  bool
	version  uint64
	entries  []TokenEntry
	byDigest map[[sha256.Size]byte]string
}

// Match reports whether a token digest (SHA-256) is one of the file's
// tokens now, and the caller it names.
func (t *TokenFileCache) Match(digest [sha256.Size]byte) (name string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refresh()
	name, ok = t.byDigest[digest]
	return name, ok
}

// Entries returns the file's tokens now and the version they belong to,
// which changes whenever they do.
func (t *TokenFileCache) Entries() ([]TokenEntry, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refresh()
	return t.entries, t.version
}

// Tokens returns the file's tokens now.
func (t *TokenFileCache) Tokens() []string {
	entries, _ := t.Entries()
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Token
	}
	return out
}

// refresh reloads the file when it changed; t.mu is held.
func (t *TokenFileCache) refresh() {
	if t.Path == "" {
		return
	}
	info, err := os.Stat(t.Path)
	if err != nil {
		t.fail(err)
		return
	}
	now := t.now()
	same := t.info != nil && os.SameFile(t.info, info) && info.Size() == t.info.Size() && info.ModTime().Equal(t.info.ModTime())
	if same && now.Sub(t.checked) < t.contentCheck() {
		return
	}
	data, info, err := readTokenFileOnce(t.Path)
	if err != nil {
		t.fail(err)
		return
	}
	t.checked = now
	sum := sha256.Sum256(data)
	if t.info != nil && sum == t.sum {
		t.info = info
		return
	}
	t.load(data, info, sum)
}

// readTokenFileOnce reads the file and describes the descriptor it read.
func readTokenFileOnce(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes+1))
	if err == nil && len(data) > maxTokenFileBytes {
		err = fmt.Errorf("larger than %d bytes", maxTokenFileBytes)
	}
	return data, info, err
}

// load replaces the tokens by the file's, refusing entries the start-up
// rules refuse.
func (t *TokenFileCache) load(data []byte, info os.FileInfo, sum [sha256.Size]byte) {
	var entries []TokenEntry
	byDigest := map[[sha256.Size]byte]string{}
	line := 0
	for text := range strings.Lines(string(data)) {
		line++
		entry := strings.TrimSpace(text)
		if entry == "" || strings.HasPrefix(entry, "#") {
			continue
		}
		if err := CheckToken(entry); err != nil {
			t.logger().Error("inbound token file: a token is refused", "file", t.Path, "line", line, "reason", err.Error())
			continue
		}
		name, token := SplitNamedToken(entry)
		entries = append(entries, TokenEntry{Name: name, Token: token})
		byDigest[sha256.Sum256([]byte(token))] = name
	}
	if t.failing {
		t.logger().Info("inbound token file readable again", "file", t.Path)
	}
	t.info, t.sum, t.failing = info, sum, false
	t.entries, t.byDigest = entries, byDigest
	t.version++
	t.logger().Info("inbound token file loaded", "file", t.Path, "tokens", len(entries))
}

// fail drops every token: a file that cannot be read accepts nobody.
func (t *TokenFileCache) fail(err error) {
	if !t.failing {
		t.logger().Error("inbound token file cannot be read: no token is accepted until it can", "file", t.Path, "error", err.Error())
		t.version++
	}
	t.failing, t.info, t.entries, t.byDigest = true, nil, nil, nil
}

func (t *TokenFileCache) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func (t *TokenFileCache) contentCheck() time.Duration {
	if t.ContentCheck > 0 {
		return t.ContentCheck
	}
	return DefaultContentCheck
}

func (t *TokenFileCache) logger() *slog.Logger {
	if t.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return t.Logger
}
