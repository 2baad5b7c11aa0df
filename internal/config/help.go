// SPDX-License-Identifier: Apache-2.0

package config

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// groupAnnotation is the pflag annotation that puts a flag outside the
// settings table (a subcommand's own, such as --instance) in a group.
const groupAnnotation = "dagu-mcp-gateway/group"

// SetGroup puts a subcommand's own flag, which has no row in the settings
// table, under group g in --help.
func SetGroup(fs *pflag.FlagSet, flag string, g Group) {
	if err := fs.SetAnnotation(flag, groupAnnotation, []string{strconv.Itoa(int(g))}); err != nil {
		panic("config.SetGroup: " + err.Error())
	}
}

// helpIndent is how far a flag's text is indented under its name.
const helpIndent = 6

// FlagHelp renders the flags of fs as --help lists them: under the heading
// of their group, in the order of Groups (a setting's group is its row's;
// another flag's is the one SetGroup gave it, else the last group), each
// flag on a line of its own with its text wrapped to width under it.
func FlagHelp(fs *pflag.FlagSet, width int) string {
	byGroup := map[Group][]*pflag.Flag{}
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			g := groupOf(f)
			byGroup[g] = append(byGroup[g], f)
		}
	})
	var b strings.Builder
	for _, g := range Groups() {
		flags := byGroup[g]
		if len(flags) == 0 {
			continue
		}
		slices.SortStableFunc(flags, func(x, y *pflag.Flag) int { return tableIndex(x.Name) - tableIndex(y.Name) })
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(g.Title() + ":\n")
		for _, f := range flags {
			writeFlagHelp(&b, f, width)
		}
	}
	return b.String()
}

// groupOf is the group a flag is listed under.
func groupOf(f *pflag.Flag) Group {
	if s, ok := Lookup(f.Name); ok {
		return s.Group
	}
	if v := f.Annotations[groupAnnotation]; len(v) == 1 {
		if g, err := strconv.Atoi(v[0]); err == nil {
			return Group(g)
		}
	}
	return GroupNone
}

// tableIndex is the flag's row number in the settings table; a flag
// without a row comes after all of them, and --help last.
func tableIndex(flag string) int {
	if i := slices.IndexFunc(settings, func(s Setting) bool { return s.Flag == flag }); i >= 0 {
		return i
	}
	if flag == "help" {
		return len(settings) + 1
	}
	return len(settings)
}

// writeFlagHelp writes one flag: its names and value type, then its text
// (with the default) wrapped to width.
func writeFlagHelp(b *strings.Builder, f *pflag.Flag, width int) {
	b.WriteString("  ")
	if f.Shorthand != "" {
		b.WriteString("-" + f.Shorthand + ", ")
	}
	b.WriteString("--" + f.Name)
	if value := valueName(f); value != "" {
		b.WriteString(" " + value)
	}
	b.WriteString("\n")
	text := f.Usage
	if def := shownDefault(f); def != "" && !strings.Contains(text, "(default ") {
		text += " (default " + def + ")"
	}
	// "[env NAME]" stays on one line.
	text = strings.ReplaceAll(text, "[env ", "[env"+nbsp)
	for _, line := range wrap(text, width-helpIndent) {
		b.WriteString(strings.Repeat(" ", helpIndent) + strings.ReplaceAll(line, nbsp, " ") + "\n")
	}
}

// nbsp joins two words wrap must not cut apart.
const nbsp = "\u00a0"

// valueNames name a setting's value in help, by kind.
var valueNames = map[Kind]string{
	KindString: "string", KindDuration: "duration", KindInt: "int", KindSize: "size", KindList: "string", KindNumber: "number",
}

// valueName names the flag's value: by its setting's kind, else as pflag
// names it (empty for a switch).
func valueName(f *pflag.Flag) string {
	if s, ok := Lookup(f.Name); ok {
		return valueNames[s.Kind]
	}
	name, _ := pflag.UnquoteUsage(f)
	return name
}

// shownDefault is the default help shows: the setting's, or pflag's when
// it is not a zero value. A setting without one describes its default in
// its usage (ZeroDefault).
func shownDefault(f *pflag.Flag) string {
	if s, ok := Lookup(f.Name); ok {
		return s.Default
	}
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
		return ""
	}
	return f.DefValue
}

// wrap cuts text into lines of at most width columns at its spaces (not
// at nbsp); a word longer than width stands on a line of its own.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(text, " ") { // not Fields: it cuts at nbsp
		if word == "" {
			continue
		}
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
