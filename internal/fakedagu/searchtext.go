// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"regexp"
	"strings"
)

// Search answers show each matching line with up to two lines of context
// on each side (recordings 018-020 and 028-029). Matching is literal and
// case-insensitive, line by line.

const snippetContext = 2

// searchMatch is one matching line and its snippet.
type searchMatch struct {
	line       string // the snippet
	lineNumber int
	startLine  int
}

func (m searchMatch) body() obj {
	return obj{"line": m.line, "lineNumber": m.lineNumber, "startLine": m.startLine}
}

// textLines splits a document into lines; a final newline ends the last
// line rather than starting an empty one.
func textLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// findMatches returns every line of text that contains q, ignoring case
// (the search feeds).
func findMatches(text, q string) []searchMatch {
	needle := strings.ToLower(q)
	return matchLines(text, func(l string) bool { return strings.Contains(strings.ToLower(l), needle) })
}

// findPatternMatches returns every line the regular expression matches, as
// the older unpaged search routes do: /dags/search reads q as a
// case-insensitive expression ((?i) prepended), /docs/search as a
// case-sensitive one. An invalid expression matches nothing (Dagu skips
// the document).
func findPatternMatches(text, pattern string) []searchMatch {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	return matchLines(text, re.MatchString)
}

// matchLines returns the snippet of every line match accepts.
func matchLines(text string, match func(string) bool) []searchMatch {
	lines := textLines(text)
	var out []searchMatch
	for i, l := range lines {
		if !match(l) {
			continue
		}
		first := max(0, i-snippetContext)
		last := min(len(lines), i+snippetContext+1)
		out = append(out, searchMatch{
			line:       strings.Join(lines[first:last], "\n"),
			lineNumber: i + 1,
			startLine:  first + 1,
		})
	}
	return out
}

// matchBodies renders matches in the SearchMatchItem shape.
func matchBodies(ms []searchMatch) arr {
	out := make(arr, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.body())
	}
	return out
}

// clampLimit applies a search limit's default and maximum.
func clampLimit(limit int, present bool, def, maximum int) int {
	if !present || limit <= 0 {
		return def
	}
	return min(limit, maximum)
}
