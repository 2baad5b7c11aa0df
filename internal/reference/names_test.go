// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestValidName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"authoring", true},
		{"read-tool", true},
		{"a", true},
		{"9lives", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"-lead", false},
		{"Upper", false},
		{"under_score", false},
		{"dot.md", false},
		{"../x", false},
		{"a/b", false},
		{"a b", false},
		{"é", false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.name); got != tt.want {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTitleOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", "# Hello\n\ntext", "Hello"},
		{"leading blank lines", "\n\n#   Spaced   \n", "Spaced"},
		{"closing hashes", "# Title ##\n", "Title"},
		{"hash inside word", "# Learn C#\n", "Learn C#"},
		{"only hashes", "# ###\n", ""},
		{"level two ignored", "## Sub\n# Main\n", "Main"},
		{"in fence ignored", "```\n# not\n```\n# Real\n", "Real"},
		{"no heading", "just text\n", ""},
		{"hash without space", "#NoSpace\n", ""},
		{"too deep", strings.Repeat("line\n", titleSearchLines) + "# Late\n", ""},
		{"long", "# " + strings.Repeat("x", 500), strings.Repeat("x", maxTitleRunes)},
		{"invalid utf8", "# Bad \xff title\n", "Bad  title"},
		{"crlf", "# Windows\r\nbody", "Windows"},
		{"control inside", "# Tab\tand\rreturn", "Tab and return"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := titleOf(tt.in); got != tt.want {
				t.Fatalf("titleOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzTitleOf(f *testing.F) {
	for _, seed := range []string{
		"# Title\n", "## x\n# y", "```\n# a\n```\n# b", "# C# ##", "\xff# \xfe", "# " + strings.Repeat("é", 200),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := titleOf(in)
		if !utf8.ValidString(got) {
			t.Fatalf("titleOf(%q) = %q is not valid UTF-8", in, got)
		}
		if strings.IndexFunc(got, unicode.IsControl) >= 0 {
			t.Fatalf("titleOf(%q) = %q holds a control character", in, got)
		}
		if utf8.RuneCountInString(got) > maxTitleRunes {
			t.Fatalf("titleOf(%q) is %d runes long", in, utf8.RuneCountInString(got))
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("titleOf(%q) = %q is not trimmed", in, got)
		}
	})
}

// FuzzTopicName checks that no name, however crafted, reads a file outside
// the reference directory, and that only valid names ever succeed.
func FuzzTopicName(f *testing.F) {
	for _, seed := range []string{
		"authoring", "../secret", "secret", "..", "/etc/passwd", "a/../../secret",
		"%2e%2e%2fsecret", "extra", "Extra", "extra.md", "", "x\x00y",
	} {
		f.Add(seed)
	}
	base := f.TempDir()
	const secret = "FUZZ SECRET"
	if err := os.WriteFile(filepath.Join(base, "secret.md"), []byte(secret), 0o600); err != nil {
		f.Fatal(err)
	}
	dir := filepath.Join(base, "refs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.md"), []byte("# Extra\n"), 0o600); err != nil {
		f.Fatal(err)
	}
	l, err := New(Options{Dir: dir})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name string) {
		text, err := l.Topic(context.Background(), name)
		if strings.Contains(text, secret) {
			t.Fatalf("Topic(%q) read outside the directory", name)
		}
		if err == nil && !ValidName(name) {
			t.Fatalf("Topic(%q) succeeded for an invalid name", name)
		}
	})
}
