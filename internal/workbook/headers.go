// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// cleanHeader trims a header cell's text and turns its line breaks into
// spaces: each run of white space that holds a line break (CR, LF, or
// CRLF, with any spaces around it) becomes one space.
func cleanHeader(text string) string {
	text = strings.TrimSpace(text)
	if !strings.ContainsAny(text, "\r\n") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for text != "" {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(strings.TrimRight(text[:i], " \t"))
		b.WriteByte(' ')
		text = strings.TrimLeft(text[i:], " \t\r\n")
	}
	return b.String()
}

// nameHeaders applies the header rules to the block's header cells, given
// left to right starting at column firstCol: an empty header becomes its
// column letter, a repeated one gets _2, _3... The name `_row` is taken by
// sample rows, so a header of that name is renamed like a repeat.
//
// The work is linear in the headers: each base name keeps the next suffix
// to try, so a row of 16,384 equal headers is named in one pass (trying
// _2, _3... afresh for each repeat took 11-13 s of CPU).
func nameHeaders(sheet string, headerRow, firstCol int, texts []string, warn *warnings) []string {
	names := make([]string, len(texts))
	taken := make(map[string]bool, len(texts)+1)
	taken[model.SampleRowKey] = true
	var next map[string]int
	for i, text := range texts {
		col := firstCol + i
		name := cleanHeader(text)
		if name == "" {
			name = columnName(col)
			warn.addf("%s!%s: header is empty; column named %s", sheet, cellName(col, headerRow), name)
		}
		if taken[name] {
			if next == nil {
				next = make(map[string]int)
			}
			renamed := uniqueName(name, taken, next)
			warn.addf("%s: duplicate header %q renamed %s", sheet, name, renamed)
			name = renamed
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

// uniqueName returns the first free name base_N from the base's next
// suffix on, and moves that suffix past it. A taken name base_N is passed
// over at most once (N only grows), so naming stays linear overall.
func uniqueName(base string, taken map[string]bool, next map[string]int) string {
	for n := max(next[base], 2); ; n++ {
		candidate := base + "_" + strconv.Itoa(n)
		if !taken[candidate] {
			next[base] = n + 1
			return candidate
		}
	}
}
