// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"bufio"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// namePattern is the grammar of a topic name; it leaves no room for path
// separators, dots or upper case.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// ValidName reports whether name is a well-formed topic name.
func ValidName(name string) bool {
	return namePattern.MatchString(name)
}

const (
	// titleSearchLines is how far into a topic the title heading may start.
	titleSearchLines = 40
	// maxTitleRunes bounds a title so a stray long line cannot flood a
	// listing.
	maxTitleRunes = 120
)

// titleOf returns the text of the first level-1 ATX heading ("# Title")
// near the top of a Markdown document, outside fenced code blocks, or "".
func titleOf(markdown string) string {
	scanner := bufio.NewScanner(strings.NewReader(markdown))
	scanner.Buffer(make([]byte, 0, 4096), 64*1024)
	inFence := false
	for n := 0; n < titleSearchLines && scanner.Scan(); n++ {
		line := strings.TrimSpace(scanner.Text())
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if text, ok := strings.CutPrefix(line, "# "); ok {
			return cleanTitle(text)
		}
	}
	return ""
}

// controlToSpace turns control characters, such as a stray carriage
// return, into spaces so a title stays one printable line.
func controlToSpace(r rune) rune {
	if unicode.IsControl(r) {
		return ' '
	}
	return r
}

// cleanTitle drops an optional closing "#" sequence (only when a space
// precedes it, so "C#" keeps its "#"), invalid UTF-8 and excess length from
// a heading's text.
func cleanTitle(text string) string {
	text = strings.Map(controlToSpace, strings.ToValidUTF8(text, ""))
	text = strings.TrimSpace(text)
	if trimmed := strings.TrimRight(text, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") {
		text = strings.TrimSpace(trimmed)
	}
	if utf8.RuneCountInString(text) > maxTitleRunes {
		text = string([]rune(text)[:maxTitleRunes])
	}
	return strings.TrimSpace(text)
}
