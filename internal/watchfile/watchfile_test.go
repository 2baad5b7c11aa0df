// SPDX-License-Identifier: Apache-2.0

package watchfile

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

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

func TestReadIsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	write(t, big, strings.Repeat("x", 101))
	small := filepath.Join(dir, "small")
	write(t, small, "hello")
	cases := []struct {
		path, want string
	}{
		{fifo, "not a regular file"},
		{dir, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{big, "more than the 100"},
		{filepath.Join(dir, "none"), "no such file"},
		{small, ""},
	}
	for _, tc := range cases {
		data, err := Read(tc.path, "test file", 100)
		switch {
		case tc.want == "" && (err != nil || string(data) != "hello"):
			t.Errorf("%s: %q, %v", tc.path, data, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
}

func TestCheckKeyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		text, want string
	}{
		{"dagu_key\n", ""},
		{"  \n", "no usable key"},
		{"two words", "no usable key"},
		{strings.Repeat("k", 65), "more than"},
	}
	for i, tc := range cases {
		path := filepath.Join(dir, string(rune('a'+i)))
		write(t, path, tc.text)
		err := CheckKeyFile(path, "apiKeyFile", 64)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.text, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), strings.TrimSpace(tc.text)) && strings.TrimSpace(tc.text) != "" {
			t.Errorf("the error holds the file's text: %v", err)
		}
	}
}

// TestWatcherKeepsTheLastGoodVersion: a broken or refused version keeps
// the one in service, each problem logged once; Check tries a refused
// version again.
func TestWatcherKeepsTheLastGoodVersion(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "file")
	write(t, path, "one")
	var refuse error
	parse := func(data []byte) (string, error) {
		if strings.HasPrefix(string(data), "bad") {
			return "", errors.New("a bad version")
		}
		return string(data), nil
	}
	var logs testkit.LogBuffer
	w, err := New(Options[string]{Path: path, What: "test file", MaxBytes: 100, Parse: parse,
		Apply: func(string) error { return refuse }, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, "two")
	w.Check()
	write(t, path, "bad")
	w.Check()
	w.Check()
	write(t, path, "three")
	refuse = errors.New("refused three")
	w.Check()
	if w.Current() != "two" {
		t.Fatalf("current %q, want two", w.Current())
	}
	text := logs.String()
	for _, want := range []string{"a bad version", "refused three", "test file loaded", "test file reloaded"} {
		if strings.Count(text, want) != 1 {
			t.Errorf("the log has %q %d times, want once:\n%s", want, strings.Count(text, want), text)
		}
	}
	refuse = nil
	w.Check()
	if w.Current() != "three" {
		t.Fatalf("after the retry: %q", w.Current())
	}
}

// TestHalfWrittenFileIsNotApplied: a file rewritten in place can be read
// half written, and the prefix can be a good version that says something
// else (an access rule's subject u12 cut to u1). The interval's look
// applies a change only once the next look reads the same content; SIGHUP
// (Check) applies it at once.
func TestHalfWrittenFileIsNotApplied(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "file")
	write(t, path, "subject: u9")
	w, err := New(Options[string]{Path: path, What: "test file", MaxBytes: 100,
		Parse: func(data []byte) (string, error) { return string(data), nil }, Apply: func(string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		content, want string
	}{
		{"subject: u1", "subject: u9"},   // the writer is half way: not applied
		{"subject: u9", "subject: u9"},   // written: the version in service again
		{"subject: u1", "subject: u9"},   // half way again: still read once only
		{"subject: u12", "subject: u9"},  // written: changed again since the last look
		{"subject: u12", "subject: u12"}, // the same on two looks: applied
	}
	for i, s := range steps {
		write(t, path, s.content)
		w.check(false)
		if got := w.Current(); got != s.want {
			t.Fatalf("look %d at %q: in service %q, want %q", i+1, s.content, got, s.want)
		}
	}
	write(t, path, "subject: u3")
	w.Check()
	if got := w.Current(); got != "subject: u3" {
		t.Fatalf("after SIGHUP: %q", got)
	}
}
