// SPDX-License-Identifier: Apache-2.0

package readtool

//go:generate go run ./gendocs -root ../..

import (
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TargetTableMarkdown renders the README's target table from the rows:
// each target's required and optional fields (with their defaults) and
// what it reads. The gendocs command writes it into README.md, and its
// test fails when the README drifts from the rows.
func TargetTableMarkdown() string { return targetTableMarkdown(targetTable) }

func targetTableMarkdown(rows []targetSpec) string {
	var b strings.Builder
	b.WriteString("| Target | Required | Optional | Reads |\n| --- | --- | --- | --- |\n")
	for i := range rows {
		s := &rows[i]
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

// URITableMarkdown renders read-tool.md's URI shapes table from the rows:
// a line per row with its patterns (the sub-run forms on a line of their
// own, after every root form), marked when the target takes a query.
func URITableMarkdown() string { return uriTableMarkdown(targetTable) }

func uriTableMarkdown(rows []targetSpec) string {
	var root, sub []string
	for i := range rows {
		s := &rows[i]
		var own, under []string
		for _, p := range s.patterns {
			cell := "`" + model.Scheme + p.path + "`"
			if strings.HasPrefix(p.path, runRoot+subRunTail) {
				under = append(under, cell)
			} else {
				own = append(own, cell)
			}
		}
		query := ""
		if s.reader.queryKeys() != nil {
			query = " (query allowed)"
		}
		if len(own) > 0 {
			root = append(root, "| "+strings.Join(own, ", ")+query+" | `"+s.name+"` |\n")
		}
		if len(under) > 0 {
			sub = append(sub, "| "+strings.Join(under, ", ")+query+" | `"+s.name+"` in a child run |\n")
		}
	}
	return "| URI | Target |\n| --- | --- |\n" + strings.Join(root, "") + strings.Join(sub, "")
}

// QueryTableMarkdown renders read-tool.md's Query parameters table: every
// query parameter of every row, in table order, with its accepted values.
func QueryTableMarkdown() string { return queryTableMarkdown(targetTable) }

func queryTableMarkdown(rows []targetSpec) string {
	var b strings.Builder
	b.WriteString("| Target | Parameter | Accepted values |\n| --- | --- | --- |\n")
	for i := range rows {
		s := &rows[i]
		docs := s.reader.queryDocs()
		for j, key := range s.reader.queryKeys() {
			b.WriteString("| `" + s.name + "` | `" + key + "` | " + docs[j] + " |\n")
		}
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
