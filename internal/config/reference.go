// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"strings"
)

//go:generate go run ./genref -root ../..

// kindNames say what a value of each kind looks like, in the reference.
var kindNames = map[Kind]string{
	KindString:   "string",
	KindBool:     "true or false",
	KindDuration: "duration (`500ms`, `15s`, `1h30m`)",
	KindInt:      "whole number",
	KindSize:     "size in bytes, plain or with a binary unit (`512KiB`, `32MiB`, `1GiB`)",
	KindList:     "list: repeat the flag",
	KindNumber:   "decimal number",
}

// ReferenceMarkdown renders the settings table as the generated part of
// the configuration reference (docs/configuration.md): per group, a table
// of its flags, then a section for each flag with its variable, type,
// default, subcommands, Helm chart value and text.
func ReferenceMarkdown() string {
	var b strings.Builder
	for _, g := range Groups() {
		rows := inGroup(g)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", g.Title(), g.About())
		b.WriteString("| Flag | Environment | Default |\n| --- | --- | --- |\n")
		for _, s := range rows {
			fmt.Fprintf(&b, "| [`--%s`](#--%s) | `%s` | %s |\n", s.Flag, s.Flag, s.Env, s.referenceDefault())
		}
		for _, s := range rows {
			b.WriteString("\n")
			s.writeReference(&b)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// inGroup returns the rows of group g, in table order.
func inGroup(g Group) []Setting {
	var out []Setting
	for _, s := range settings {
		if s.Group == g {
			out = append(out, s)
		}
	}
	return out
}

// writeReference writes the setting's section of the reference.
func (s Setting) writeReference(b *strings.Builder) {
	fmt.Fprintf(b, "### `--%s`\n\n", s.Flag)
	fmt.Fprintf(b, "- Environment: `%s`\n", s.Env)
	fmt.Fprintf(b, "- Type: %s\n", kindNames[s.Kind])
	fmt.Fprintf(b, "- Default: %s\n", s.referenceDefault())
	fmt.Fprintf(b, "- Subcommands: %s\n", s.modeList())
	fmt.Fprintf(b, "- Helm chart value: `%s`\n", s.Chart)
	if s.Secret {
		b.WriteString("- Secret: never logged or echoed; the chart takes it from a Kubernetes Secret\n")
	}
	text := s.Doc
	if text == "" {
		text = strings.ToUpper(s.Help[:1]) + s.Help[1:] + "."
	}
	fmt.Fprintf(b, "\n%s\n", text)
}

// referenceDefault is the default as the reference writes it: a value
// in code font, or the words of ZeroDefault.
func (s Setting) referenceDefault() string {
	if s.Default != "" {
		return "`" + s.Default + "`"
	}
	return s.ZeroDefault
}

// modeList names the subcommands that take the setting.
func (s Setting) modeList() string {
	names := make([]string, len(s.Modes))
	for i, m := range s.Modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}
