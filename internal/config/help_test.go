// SPDX-License-Identifier: Apache-2.0

package config

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// TestFlagHelpGroupsAndWraps: --help lists the flags under their groups'
// headings in the order of Groups, a subcommand's own flag under the
// group SetGroup gave it and --help last; no line is wider than asked,
// and "[env NAME]" is never cut.
func TestFlagHelpGroupsAndWraps(t *testing.T) {
	t.Parallel()
	const width = 60
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	RegisterFlags(fs, ModeServe)
	fs.String("instance", "", "the instance to serve")
	SetGroup(fs, "instance", GroupDagu)
	fs.Bool("help", false, "help for serve")
	fs.Int("extra", 3, "a flag in no group")
	help := FlagHelp(fs, width)

	var headings []string
	flagGroup := map[string]string{}
	heading := ""
	for line := range strings.Lines(help) {
		line = strings.TrimSuffix(line, "\n")
		if n := utf8.RuneCountInString(line); n > width {
			t.Errorf("line of %d columns, want at most %d: %q", n, width, line)
		}
		switch {
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " "):
			heading = strings.TrimSuffix(line, ":")
			headings = append(headings, heading)
		case strings.HasPrefix(line, "  --"):
			flagGroup[strings.Fields(line)[0]] = heading
		}
		if strings.HasSuffix(line, "[env") {
			t.Errorf("a line ends inside [env NAME]: %q", line)
		}
	}
	var want []string
	for _, g := range Groups() {
		if slices.ContainsFunc(Settings(), func(s Setting) bool { return s.Group == g && s.UsedBy(ModeServe) }) || g == GroupNone {
			want = append(want, g.Title())
		}
	}
	if !slices.Equal(headings, want) {
		t.Errorf("headings %q, want %q", headings, want)
	}
	for _, s := range Settings() {
		if s.UsedBy(ModeServe) && flagGroup["--"+s.Flag] != s.Group.Title() {
			t.Errorf("--%s is under %q, want %q", s.Flag, flagGroup["--"+s.Flag], s.Group.Title())
		}
	}
	if flagGroup["--instance"] != GroupDagu.Title() || flagGroup["--extra"] != GroupNone.Title() {
		t.Errorf("--instance under %q, --extra under %q", flagGroup["--instance"], flagGroup["--extra"])
	}
	if !strings.HasSuffix(help, "  --help\n      help for serve\n") {
		t.Errorf("--help is not last:\n%s", help)
	}
	if !strings.Contains(help, "  --extra int\n      a flag in no group (default 3)\n") {
		t.Errorf("a flag outside the table lacks its type or default:\n%s", help)
	}
}

// TestWrap: lines fill up to the width, a longer word stands alone, and
// nothing is lost.
func TestWrap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"one two three", 7, []string{"one two", "three"}},
		{"one two three", 13, []string{"one two three"}},
		{"a verylongword b", 5, []string{"a", "verylongword", "b"}},
		{"", 10, nil},
		{"keep[env" + nbsp + "X] together", 9, []string{"keep[env" + nbsp + "X]", "together"}},
	} {
		if got := wrap(tc.text, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}
