// SPDX-License-Identifier: Apache-2.0

package config

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Bounds of a token file reload.
const (
	// DefaultStatInterval is how often the token file is looked at
	// (inode, size, modification time): between two looks every check
	// uses the tokens last loaded, so a request costs no system call.
	DefaultStatInterval = time.Second
	// DefaultContentCheck is how often a token file whose inode, size and
	// modification time look unchanged is read again to compare its
	// content hash (an in-place rewrite can keep all three).
	DefaultContentCheck = time.Second
	// maxTokenFileBytes caps the token file read: a larger file is
	// refused from its descriptor's size, before any byte is read (200,000
	// named tokens take about 10 MiB).
	maxTokenFileBytes = 16 << 20
)

// tokenFileOpenFlags open the token file without ever waiting: O_NONBLOCK
// makes open(2) of a FIFO or a device return at once instead of blocking
// the reload (and every later one) until a writer appears.
const tokenFileOpenFlags = os.O_RDONLY | syscall.O_NONBLOCK

// TokenEntry is one accepted token of a token file.
type TokenEntry struct {
	// Name is the caller a "name:token" line names; "" for a bare token.
	Name string
	// Token is the secret itself (for the log scrubber only).
	Token string
	// Instances are the instances the token is limited to ("token
	// instances=a,b"); nil: every instance.
	Instances []string
}

// TokenFileCache holds the accepted tokens of an inbound token file and
// reads the file again when it is replaced: the file is looked at no more
// than once per StatInterval, and a different inode (an atomic rename, a
// Kubernetes secret update), size or modification time is then seen at
// once, and an in-place rewrite that keeps all three within ContentCheck,
// by the hash of the content. A reload applies the start-up rules: a token
// that is too short or not printable ASCII is refused, with a log line
// naming its line number (never the token). A file that is missing (removed
// or renamed away) means nobody is accepted, with an error log line, until
// it is back. A file that is there but broken (a FIFO, a device, a
// directory, larger than 16 MiB, unreadable) keeps the last good set of
// tokens, with an error log line saying why, until a good file replaces it.
// Each entry is hashed once per file version; a presented token is found by
// its digest in a map.
//
// It is safe for concurrent use. The file is opened non-blocking and judged
// on the opened descriptor (a regular file within the size bound) before a
// byte is read, so no reload waits for a writer. A check never waits for a
// reload once the first load is done: one caller at a time looks at the
// file, outside any lock the others take, and swaps the parsed tokens in
// atomically; the callers that find the look due meanwhile keep using the
// tokens it replaces, so concurrent reloads coalesce into one.
type TokenFileCache struct {
	// Path is the token file; empty means no file and no tokens.
	Path string
	// Logger receives the reload problems; nil discards them.
	Logger *slog.Logger
	// StatInterval overrides DefaultStatInterval.
	StatInterval time.Duration
	// ContentCheck overrides DefaultContentCheck.
	ContentCheck time.Duration
	// Now replaces the clock (default time.Now).
	Now func() time.Time

	state  atomic.Pointer[tokenSet] // nil before the first load
	reload sync.Mutex               // held by the one reload in progress

	// stat and read replace os.Stat and readTokenFileOnce in tests.
	stat func(string) (os.FileInfo, error)
	read func(string) ([]byte, os.FileInfo, error)
}

// tokenSet is one immutable state of the cache: a reload builds a new one.
type tokenSet struct {
	info     os.FileInfo // of the version loaded; nil before a load or after a failure
	sum      [sha256.Size]byte
	looked   time.Time // when the file was last looked at
	checked  time.Time // when its content was last read
	failing  bool      // missing: nobody is accepted
	broken   bool      // there but unusable: the last good tokens stay
	version  uint64
	entries  []TokenEntry
	byDigest map[[sha256.Size]byte]TokenEntry
}

// noTokens is the state of a cache without a file.
var noTokens = &tokenSet{}

// Match reports whether a token digest (SHA-256) is one of the file's
// tokens now, and the caller it names.
func (t *TokenFileCache) Match(digest [sha256.Size]byte) (name string, ok bool) {
	e, ok := t.Lookup(digest)
	return e.Name, ok
}

// Lookup returns the entry of a token digest (SHA-256) that is one of the
// file's tokens now: the caller it names and the instances it is for.
func (t *TokenFileCache) Lookup(digest [sha256.Size]byte) (TokenEntry, bool) {
	e, ok := t.current().byDigest[digest]
	return e, ok
}

// Entries returns the file's tokens now and the version they belong to,
// which changes whenever they do.
func (t *TokenFileCache) Entries() ([]TokenEntry, uint64) {
	s := t.current()
	return s.entries, s.version
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

// current is the state to check against, after looking at the file when
// that is due. Only the first load is waited for; afterwards a caller that
// finds another reload in progress uses the state it replaces.
func (t *TokenFileCache) current() *tokenSet {
	if t.Path == "" {
		return noTokens
	}
	now := t.now()
	s := t.state.Load()
	if s != nil && now.Sub(s.looked) < t.statInterval() {
		return s
	}
	if s == nil {
		t.reload.Lock()
	} else if !t.reload.TryLock() {
		return s
	}
	defer t.reload.Unlock()
	if s = t.state.Load(); s != nil && now.Sub(s.looked) < t.statInterval() {
		return s // loaded while this caller waited
	}
	next := t.refresh(s, now)
	t.state.Store(next)
	return next
}

// refresh looks at the file and returns the state after old (nil before
// the first load): old with the times moved when the file is unchanged, a
// new set of tokens when it changed, none when it cannot be read.
func (t *TokenFileCache) refresh(old *tokenSet, now time.Time) *tokenSet {
	next := &tokenSet{}
	if old != nil {
		*next = *old
	}
	next.looked = now
	info, err := t.statFile(t.Path)
	if err != nil {
		return t.fail(next, err)
	}
	same := next.info != nil && !next.broken && os.SameFile(next.info, info) && info.Size() == next.info.Size() && info.ModTime().Equal(next.info.ModTime())
	if same && now.Sub(next.checked) < t.contentCheck() {
		return next
	}
	data, info, err := t.readFile(t.Path)
	if err != nil {
		return t.fail(next, err)
	}
	next.checked = now
	sum := sha256.Sum256(data)
	if next.info != nil && sum == next.sum {
		t.logRecovery(next)
		next.info, next.failing, next.broken = info, false, false
		return next
	}
	return t.load(next, data, info, sum)
}

// readTokenFileOnce reads the file and describes the descriptor it read.
// The descriptor, not the path, must be a regular file within the size
// bound: the path may have been swapped since it was looked at.
func readTokenFileOnce(path string) ([]byte, os.FileInfo, error) {
	f, err := os.OpenFile(path, tokenFileOpenFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("not a regular file (%s)", info.Mode().Type())
	}
	if info.Size() > maxTokenFileBytes {
		return nil, nil, fmt.Errorf("%d bytes, larger than the %d bytes a token file may hold", info.Size(), maxTokenFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes+1))
	if err == nil && len(data) > maxTokenFileBytes {
		err = fmt.Errorf("grew past %d bytes while read", maxTokenFileBytes)
	}
	return data, info, err
}

// load puts the file's tokens in next, refusing entries the start-up
// rules refuse.
func (t *TokenFileCache) load(next *tokenSet, data []byte, info os.FileInfo, sum [sha256.Size]byte) *tokenSet {
	var entries []TokenEntry
	byDigest := map[[sha256.Size]byte]TokenEntry{}
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
		scope, _ := TokenInstances(entry) // CheckToken refused a malformed list
		e := TokenEntry{Name: name, Token: token, Instances: scope}
		entries = append(entries, e)
		byDigest[sha256.Sum256([]byte(token))] = e
	}
	t.logRecovery(next)
	next.info, next.sum, next.failing, next.broken = info, sum, false, false
	next.entries, next.byDigest = entries, byDigest
	next.version++
	t.logger().Info("inbound token file loaded", "file", t.Path, "tokens", len(entries))
	return next
}

// fail is what a look at the file that found no usable file leaves: a
// missing file (or one before any good load) drops every token of next,
// accepting nobody; a broken file keeps the last good tokens. Either is
// logged once, with the reason (an error of the file system, never the
// file's content).
func (t *TokenFileCache) fail(next *tokenSet, err error) *tokenSet {
	if errors.Is(err, fs.ErrNotExist) || next.entries == nil && !next.broken {
		if !next.failing {
			t.logger().Error("inbound token file cannot be read: no token is accepted until it can", "file", t.Path, "error", err.Error())
			next.version++
		}
		next.failing, next.broken, next.info, next.entries, next.byDigest = true, false, nil, nil, nil
		return next
	}
	if !next.broken {
		t.logger().Error("inbound token file is not usable: the tokens last loaded stay accepted until a good file replaces it",
			"file", t.Path, "tokens", len(next.entries), "error", err.Error())
	}
	next.broken = true
	return next
}

// logRecovery says so when a usable file follows a missing or broken one.
func (t *TokenFileCache) logRecovery(next *tokenSet) {
	if next.failing || next.broken {
		t.logger().Info("inbound token file readable again", "file", t.Path)
	}
}

func (t *TokenFileCache) statFile(path string) (os.FileInfo, error) {
	if t.stat != nil {
		return t.stat(path)
	}
	return os.Stat(path)
}

func (t *TokenFileCache) readFile(path string) ([]byte, os.FileInfo, error) {
	if t.read != nil {
		return t.read(path)
	}
	return readTokenFileOnce(path)
}

func (t *TokenFileCache) statInterval() time.Duration {
	if t.StatInterval > 0 {
		return t.StatInterval
	}
	return DefaultStatInterval
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
