// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// headerLineBreaks turns line breaks inside a header cell into spaces.
var headerLineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// cleanHeader trims a header cell's text and turns its line breaks into
// spaces.
func cleanHeader(text string) string {
	return strings.TrimSpace(headerLineBreaks.Replace(text))
}

// nameHeaders applies the header rules to the block's header cells, given
// left to right starting at column firstCol: an empty header becomes its
// column letter, a repeated one gets _2, _3... The name `_row` is taken by
// sample rows, so a header of that name is renamed like a repeat.
func nameHeaders(sheet string, headerRow, firstCol int, texts []string, warn *warnings) []string {
	names := make([]string, len(texts))
	taken := map[string]bool{model.SampleRowKey: true}
	for i, text := range texts {
		col := firstCol + i
		name := cleanHeader(text)
		if name == "" {
			name = columnName(col)
			warn.addf("%s!%s: header is empty; column named %s", sheet, cellName(col, headerRow), name)
		}
		if taken[name] {
			renamed := uniqueName(name, taken)
			warn.addf("%s: duplicate header %q renamed %s", sheet, name, renamed)
			name = renamed
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

func uniqueName(name string, taken map[string]bool) string {
	for n := 2; ; n++ {
		candidate := name + "_" + strconv.Itoa(n)
		if !taken[candidate] {
			return candidate
		}
	}
}
