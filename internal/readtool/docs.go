// SPDX-License-Identifier: Apache-2.0

package readtool

//go:generate go run ./gendocs -root ../..

import (
	"strings"
)

// TargetTableMarkdown renders the README's target table from the rows:
// each target's required and optional fields (with their defaults) and
// what it reads. The gendocs command writes it into README.md, and its
// test fails when the README drifts from the rows.
func TargetTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| Target | Required | Optional | Reads |\n| --- | --- | --- | --- |\n")
	for i := range targetTable {
		s := &targetTable[i]
		row := []string{"`" + s.name + "`", fieldList(s.required, nil), fieldList(s.optional, s.defaults), s.summary}
		b.WriteString("|")
		for _, cell := range row {
			if cell != "" {
				cell += " "
			}
			b.WriteString(" " + cell + "|")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// fieldList writes fields as code spans, a default after its field, and
// the item + bodyStepName pair (which only go together) as one entry.
func fieldList(fields []string, defaults map[string]string) string {
	var parts []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		entry := "`" + f + "`"
		if d, ok := defaults[f]; ok {
			entry += " (default `" + d + "`)"
		}
		if f == fItem && i+1 < len(fields) && fields[i+1] == fBodyStepName {
			entry += " + `" + fBodyStepName + "`"
			i++
		}
		parts = append(parts, entry)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ")
}
