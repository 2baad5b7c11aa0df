// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

func newLibrary(t *testing.T, opts Options) *Library {
	t.Helper()
	l, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func topicNames(items []model.ReferenceItem) []string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.Name
	}
	return names
}

func TestTopicsListsBuiltinsInRegistryOrder(t *testing.T) {
	t.Parallel()
	l := newLibrary(t, Options{})
	items := l.Topics()
	want := []string{"authoring", "tools", "read-tool", "change-tool", "execute-tool", "notifications"}
	if got := topicNames(items); !slices.Equal(got, want) {
		t.Fatalf("Topics names = %v, want %v", got, want)
	}
	for _, it := range items {
		if it.URI != "dagu://reference/"+it.Name {
			t.Errorf("%s: URI = %q", it.Name, it.URI)
		}
		if it.MimeType != "text/markdown" {
			t.Errorf("%s: MimeType = %q", it.Name, it.MimeType)
		}
		if it.Title == "" {
			t.Errorf("%s: empty title", it.Name)
		}
	}
}

func TestDefaultTopicIsBuiltin(t *testing.T) {
	t.Parallel()
	if !slices.Contains(builtinTopics, DefaultTopic) {
		t.Fatalf("DefaultTopic %q is not a built-in topic", DefaultTopic)
	}
}

func TestEveryEmbeddedFileIsRegistered(t *testing.T) {
	t.Parallel()
	entries, err := embeddedFS.ReadDir("topics")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".md")
		if !slices.Contains(builtinTopics, name) {
			t.Errorf("topics/%s is embedded but not in builtinTopics", e.Name())
		}
	}
}

func TestTopicRejectsUnknownAndMalformedNames(t *testing.T) {
	t.Parallel()
	l := newLibrary(t, Options{Dir: t.TempDir()})
	names := []string{
		"", "unknown", "Authoring", "authoring.md", "../authoring", "./authoring",
		"a/b", "-authoring", "authoring ", "auth\x00oring", strings.Repeat("a", 65),
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			text, err := l.Topic(context.Background(), name)
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("Topic(%q) error = %v, want ErrNotFound", name, err)
			}
			if text != "" {
				t.Fatalf("Topic(%q) returned text", name)
			}
		})
	}
}

func TestDirOverridesBuiltinTopic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "authoring.md"), "# House rules\n\nUse our template.\n")
	l := newLibrary(t, Options{Dir: dir})

	text, err := l.Topic(context.Background(), "authoring")
	if err != nil || !strings.Contains(text, "Use our template.") {
		t.Fatalf("Topic(authoring) = %q, %v; want the override", text, err)
	}
	tools, err := l.Topic(context.Background(), "tools")
	if err != nil || tools != l.embedded["tools"] {
		t.Fatalf("Topic(tools) should stay built in, got err %v", err)
	}
	if got := l.Topics()[0]; got.Name != "authoring" || got.Title != "House rules" {
		t.Fatalf("first topic = %+v, want authoring titled from the override", got)
	}
}

func TestDirExtraTopicsFollowBuiltins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"zeta.md":      "# Zeta\n",
		"alpha-2.md":   "# Alpha two\n",
		"README.md":    "# not a topic: upper case\n",
		"bad_name.md":  "# not a topic: underscore\n",
		".hidden.md":   "# not a topic: dot\n",
		"notes.txt":    "not markdown\n",
		"tools.md":     "# Our tools\n",
		"untitled.md":  "no heading here\n",
		"authoring.MD": "# wrong extension case\n",
	} {
		writeFile(t, filepath.Join(dir, name), text)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.md"), 0o700); err != nil {
		t.Fatal(err)
	}
	l := newLibrary(t, Options{Dir: dir})
	items := l.Topics()
	want := append(slices.Clone(builtinTopics), "alpha-2", "untitled", "zeta")
	if got := topicNames(items); !slices.Equal(got, want) {
		t.Fatalf("Topics names = %v, want %v", got, want)
	}
	titles := map[string]string{}
	for _, it := range items {
		titles[it.Name] = it.Title
	}
	if titles["alpha-2"] != "Alpha two" || titles["tools"] != "Our tools" || titles["untitled"] != "" {
		t.Fatalf("titles = %v", titles)
	}
	if text, err := l.Topic(context.Background(), "zeta"); err != nil || text != "# Zeta\n" {
		t.Fatalf("Topic(zeta) = %q, %v", text, err)
	}
}

func TestDirReadsAreCachedForTTL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "authoring.md")
	writeFile(t, path, "# Old\n")
	clock := testkit.NewClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	l := newLibrary(t, Options{Dir: dir, TTL: time.Minute, Now: clock.Now})

	read := func() string {
		t.Helper()
		text, err := l.Topic(context.Background(), "authoring")
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	if got := read(); got != "# Old\n" {
		t.Fatalf("first read = %q", got)
	}
	if len(l.Topics()) != len(builtinTopics) {
		t.Fatal("unexpected extra topics")
	}
	writeFile(t, path, "# New\n")
	writeFile(t, filepath.Join(dir, "later.md"), "# Later\n")
	if got := read(); got != "# Old\n" {
		t.Fatalf("read within TTL = %q, want the cached text", got)
	}
	if len(l.Topics()) != len(builtinTopics) {
		t.Fatal("new file listed within TTL")
	}
	clock.Advance(time.Minute)
	if got := read(); got != "# New\n" {
		t.Fatalf("read after TTL = %q, want the new text", got)
	}
	if got := topicNames(l.Topics()); !slices.Contains(got, "later") {
		t.Fatalf("Topics after TTL = %v, want later listed", got)
	}
}

func TestDirRemovedOverrideFallsBackToBuiltin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.md")
	writeFile(t, path, "# Temporary\n")
	clock := testkit.NewClock(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	l := newLibrary(t, Options{Dir: dir, TTL: time.Minute, Now: clock.Now})
	if text, _ := l.Topic(context.Background(), "tools"); text != "# Temporary\n" {
		t.Fatalf("Topic(tools) = %q, want the override", text)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	text, err := l.Topic(context.Background(), "tools")
	if err != nil || text != l.embedded["tools"] {
		t.Fatalf("Topic(tools) after removal: err %v, want the built-in text", err)
	}
}

func TestDirNeverReadsOutside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	const secret = "TOP SECRET"
	writeFile(t, filepath.Join(base, "secret.md"), "# "+secret+"\n")
	dir := filepath.Join(base, "refs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret.md"), filepath.Join(dir, "leak.md")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	l := newLibrary(t, Options{Dir: dir})
	for _, name := range []string{"../secret", "..", "refs/../secret", "%2e%2e/secret", "..%2fsecret", "leak", "secret"} {
		t.Run(name, func(t *testing.T) {
			text, err := l.Topic(context.Background(), name)
			if strings.Contains(text, secret) {
				t.Fatalf("Topic(%q) read a file outside the directory", name)
			}
			if err == nil {
				t.Fatalf("Topic(%q) succeeded, want an error", name)
			}
		})
	}
	for _, it := range l.Topics() {
		if it.Name == "leak" || strings.Contains(it.Title, secret) {
			t.Fatalf("Topics lists %+v from outside the directory", it)
		}
	}
}

func TestDirRejectsUnusableFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "huge.md"), strings.Repeat("x", maxTopicBytes+1))
	writeFile(t, filepath.Join(dir, "binary.md"), "# Bin\n\xff\xfe")
	writeFile(t, filepath.Join(dir, "fine.md"), "# Fine\n")
	l := newLibrary(t, Options{Dir: dir})
	tests := []struct {
		name    string
		wantErr bool
	}{
		{"huge", true},
		{"binary", true},
		{"fine", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.Topic(context.Background(), tt.name)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Topic(%q) error = %v, want error: %v", tt.name, err, tt.wantErr)
			}
			if err != nil && errors.Is(err, ErrNotFound) {
				t.Fatalf("Topic(%q): an unreadable file is not ErrNotFound", tt.name)
			}
		})
	}
	if got := topicNames(l.Topics()); slices.Contains(got, "huge") || !slices.Contains(got, "fine") {
		t.Fatalf("Topics = %v, want fine listed and huge left out", got)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file.md")
	writeFile(t, file, "# x\n")
	tests := []struct {
		name string
		opts Options
	}{
		{"missing dir", Options{Dir: filepath.Join(t.TempDir(), "nope")}},
		{"dir is a file", Options{Dir: file}},
		{"negative TTL", Options{TTL: -time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.opts); err == nil {
				t.Fatal("New succeeded, want an error")
			}
		})
	}
}

func TestConcurrentReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "authoring.md"), "# Shared\n")
	l := newLibrary(t, Options{Dir: dir})
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
		wg.Go(func() {
			text, err := l.Topic(context.Background(), "authoring")
			if err == nil && text != "# Shared\n" {
				err = errors.New("wrong text " + text)
			}
			errs <- err
			l.Topics()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
