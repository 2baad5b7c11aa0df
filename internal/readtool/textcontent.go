// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Text content modes of a successful read (Options.TextContent).
const (
	// TextContentContract is the contract's text: "Dagu read completed."
	// (with the data only for dags). The default.
	TextContentContract = "contract"
	// TextContentJSON adds the data after the success text for every
	// target, for clients that pass only text content to the model:
	// Markdown, YAML and log lines as themselves, the other fields as JSON.
	TextContentJSON = "json"
)

// maxTextData bounds the data a TextContentJSON text carries; the full data
// is always in structuredContent.
const maxTextData = 64 << 10

// textField is a string field of a target's data that a text-only client
// gets as itself rather than JSON-escaped: a document or log lines.
type textField struct {
	// path is the field's JSON name; "a.b" is field b of object a.
	path string
	// kind names the text in its heading (application/yaml, text/markdown,
	// log lines).
	kind string
	// log marks log lines: their window follows the query (tail keeps the
	// newest lines). Documents keep their first lines.
	log bool
}

const kindLog = "log lines"

// textFields lists, per target, the fields written as themselves.
var textFields = map[string][]textField{
	tDAGSpec:   {{path: "spec", kind: "application/yaml"}},
	tReference: {{path: "text", kind: "text/markdown"}},
	tWikiPage:  {{path: "content", kind: "text/markdown"}},
	tRunLogs:   {{path: "schedulerLog.content", kind: kindLog, log: true}},
	tStepLog: {
		{path: "stdoutContent", kind: kindLog, log: true},
		{path: "stderrContent", kind: kindLog, log: true},
	},
}

// textBlock is one text field taken out of the data, and how much of it
// the text keeps.
type textBlock struct {
	textField
	lines []string
	// keepNewest keeps the last lines when the text must be cut.
	keepNewest bool
	// kept is the number of lines kept; partial marks a single line too
	// long for the budget, kept in part.
	kept    int
	partial bool
}

// dataText renders a read's data for TextContentJSON: the data's fields as
// compact JSON (without HTML escaping), then each text field under its own
// heading, cut on whole lines to keep the whole text within maxTextData,
// with a closing line saying what was left out and which query narrows the
// read.
func dataText(c *call, data any) string {
	raw, err := marshalUnescaped(data)
	if err != nil {
		return ""
	}
	rest, blocks := splitTextFields(raw, textFields[c.target])
	if len(blocks) == 0 {
		return jsonText(c, raw)
	}
	for i := range blocks {
		blocks[i].keepNewest = blocks[i].log && !readsFromStart(c)
	}
	fitBlocks(blocks, maxTextData-len(rest)-blockOverhead*len(blocks))
	var b strings.Builder
	b.Write(rest)
	for i := range blocks {
		writeBlock(&b, &blocks[i])
	}
	if note := cutNote(c, rest, blocks); note != "" {
		b.WriteString("\n\n" + note)
	}
	return b.String()
}

// blockOverhead reserves room for a block's heading and its share of the
// closing line.
const blockOverhead = 256

// marshalUnescaped encodes v as compact JSON without escaping <, > and &,
// which a model reads as themselves.
func marshalUnescaped(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// splitTextFields removes the listed string fields from the JSON object
// raw, keeping the order of the others, and returns them as blocks. A field
// that is absent, empty or not a string stays in the JSON.
func splitTextFields(raw []byte, fields []textField) ([]byte, []textBlock) {
	var blocks []textBlock
	for _, f := range fields {
		var text string
		var ok bool
		raw, text, ok = takeString(raw, strings.Split(f.path, "."))
		if ok {
			blocks = append(blocks, textBlock{textField: f, lines: splitLines(text)})
		}
	}
	return raw, blocks
}

// takeString removes the string at path from the JSON object raw.
func takeString(raw []byte, path []string) ([]byte, string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return raw, "", false
	}
	var out bytes.Buffer
	out.WriteByte('{')
	var text string
	found := false
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return raw, "", false
		}
		key, _ := keyTok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return raw, "", false
		}
		if key == path[0] && !found {
			if len(path) == 1 && json.Unmarshal(value, &text) == nil && text != "" {
				found = true
				continue
			}
			if len(path) > 1 {
				value, text, found = takeString(value, path[1:])
			}
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		keyJSON, _ := marshalUnescaped(key)
		out.Write(keyJSON)
		out.WriteByte(':')
		out.Write(value)
	}
	if !found {
		return raw, "", false
	}
	out.WriteByte('}')
	return out.Bytes(), text, true
}

// splitLines splits text into lines without their line breaks; a final
// line break does not start another line.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// readsFromStart reports whether a log read asked for the start of the log
// (head, offset, or limit alone); tail and the default window end at the
// newest line.
func readsFromStart(c *call) bool {
	q := c.logQuery()
	return q.Head != 0 || q.Offset != 0 || q.Limit != 0
}

// fitBlocks decides how many lines of each block the text keeps so that
// they fit in budget bytes together: the space is shared out evenly, a
// block that needs less than its share leaving the rest to the others.
func fitBlocks(blocks []textBlock, budget int) {
	order := make([]int, len(blocks))
	for i := range order {
		order[i] = i
	}
	size := func(i int) int { return textSize(blocks[i].lines) }
	// Smallest first, so a short block hands its unused share on.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && size(order[j]) < size(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	budget = max(budget, 0)
	for n, i := range order {
		share := budget / (len(order) - n)
		used := keepLines(&blocks[i], share)
		budget -= used
	}
}

// textSize is the byte length of lines joined by line breaks.
func textSize(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

// keepLines keeps as many whole lines of b as fit in budget bytes, from the
// end or the start as the block's window says, and returns the bytes used.
// When not even one line fits, part of the nearest line is kept.
func keepLines(b *textBlock, budget int) int {
	used := 0
	for k := range b.lines {
		line := b.lines[k]
		if b.keepNewest {
			line = b.lines[len(b.lines)-1-k]
		}
		if used+len(line)+1 > budget {
			break
		}
		used += len(line) + 1
		b.kept++
	}
	if b.kept == 0 && len(b.lines) > 0 && budget > 0 {
		b.kept, b.partial = 1, true
		used = budget
	}
	return used
}

// writeBlock writes a block's heading and its kept lines.
func writeBlock(w *strings.Builder, b *textBlock) {
	fmt.Fprintf(w, "\n\n--- %s (%s, %d %s) ---", b.path, b.kind, len(b.lines), plural(len(b.lines), "line", "lines"))
	lines := b.keptLines()
	for i, line := range lines {
		w.WriteByte('\n')
		if b.partial && i == 0 {
			line = partialLine(line, b.keepNewest)
		}
		w.WriteString(line)
	}
}

// partialLineBytes is how much of a line too long for the text is kept.
const partialLineBytes = 4 << 10

// partialLine keeps the end (or the start) of a line too long for the
// text, on a rune boundary, marking the cut with an ellipsis.
func partialLine(line string, keepEnd bool) string {
	if len(line) <= partialLineBytes {
		return line
	}
	if keepEnd {
		cut := len(line) - partialLineBytes
		for cut < len(line) && !isRuneStart(line[cut]) {
			cut++
		}
		return "…" + line[cut:]
	}
	cut := partialLineBytes
	for cut > 0 && !isRuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// keptLines is the part of the block the text shows.
func (b *textBlock) keptLines() []string {
	if b.keepNewest {
		return b.lines[len(b.lines)-b.kept:]
	}
	return b.lines[:b.kept]
}

// leftOut is the number of whole lines the text leaves out.
func (b *textBlock) leftOut() int { return len(b.lines) - b.kept }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// cutNote is the closing line of a cut text: what was left out of each
// block and the query that reads a window that fits, or where the whole
// document is when no query narrows the read.
func cutNote(c *call, rest []byte, blocks []textBlock) string {
	var parts []string
	fewest, older := -1, ""
	for i := range blocks {
		b := &blocks[i]
		if b.leftOut() == 0 && !b.partial {
			continue
		}
		which := "last"
		if b.keepNewest {
			which = "oldest"
		}
		part := fmt.Sprintf("%d %s %s of %s", b.leftOut(), which, plural(b.leftOut(), "line", "lines"), b.path)
		if b.partial {
			part += " (and part of a line too long to show)"
		}
		parts = append(parts, part)
		if b.log && (fewest < 0 || b.kept < fewest) {
			fewest = b.kept
		}
		if q := olderLinesQuery(c, rest, b); q != "" {
			older = q
		}
	}
	if len(parts) == 0 {
		return ""
	}
	note := "[Cut to stay within 64 KiB of text: left out the " + strings.Join(parts, ", the ") + ". "
	if fewest >= 0 {
		return note + logNarrowing(c, max(fewest, 1)) + older + "]"
	}
	return note + "No query narrows this read; the whole document is in structuredContent and at the resource " + c.uri + ".]"
}

// logNarrowing names the query that reads a log window this text can show
// whole: the same kind of window with n lines.
func logNarrowing(c *call, n int) string {
	q := c.logQuery()
	switch {
	case q.Head != 0:
		return fmt.Sprintf(`Read with query "head=%d" to see the first lines whole, or "offset=%d&limit=%d" for the lines after them.`, n, n+1, n)
	case q.Offset != 0 || q.Limit != 0:
		offset := max(q.Offset, 1)
		return fmt.Sprintf(`Read with query "offset=%d&limit=%d" to see these lines whole, then "offset=%d&limit=%d" for the next ones.`, offset, n, offset+n, n)
	case c.target == tStepLog:
		return fmt.Sprintf(`Read with query "tail=%d" to see the newest lines whole, or one stream with "stream=stdout" or "stream=stderr".`, n)
	}
	return fmt.Sprintf(`Read with query "tail=%d" to see the newest lines whole.`, n)
}

// olderLinesQuery names the step_log query that reads the lines a tail
// window left out, when the data's line counts describe the block: the
// window starts at line totalLines-lineCount+1.
func olderLinesQuery(c *call, rest []byte, b *textBlock) string {
	if c.target != tStepLog || !b.keepNewest || b.leftOut() == 0 {
		return ""
	}
	var counts struct {
		LineCount, TotalLines int
		IsEstimate            bool
		Stream                string
	}
	if json.Unmarshal(rest, &counts) != nil || counts.IsEstimate || b.path != counts.Stream+"Content" ||
		counts.LineCount != len(b.lines) || counts.TotalLines < counts.LineCount {
		return ""
	}
	first := counts.TotalLines - counts.LineCount + 1
	return fmt.Sprintf(` The %d %s left out are read with query "stream=%s&offset=%d&limit=%d".`,
		b.leftOut(), plural(b.leftOut(), "line", "lines"), counts.Stream, first, min(b.leftOut(), maxLogLines))
}

// jsonText is the data of a target without text fields: compact JSON when
// it fits, otherwise indented JSON cut on whole lines with a closing line.
func jsonText(c *call, raw []byte) string {
	if len(raw) <= maxTextData {
		return string(raw)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, raw, "", " "); err != nil {
		return ""
	}
	b := textBlock{lines: splitLines(indented.String())}
	keepLines(&b, maxTextData-blockOverhead)
	lines := b.keptLines()
	if b.partial {
		lines = []string{partialLine(lines[0], false)}
	}
	note := fmt.Sprintf("[Cut to stay within 64 KiB of text: left out the last %d of %d lines of this JSON. %s]",
		b.leftOut(), len(b.lines), pagingNarrowing(c))
	return strings.Join(lines, "\n") + "\n" + note
}

// pageParams names the query parameter that makes each listing target's
// pages smaller.
var pageParams = map[string]string{
	tDAGs: "perPage", tRuns: "limit", tWiki: "perPage", tForeachItems: "perPage",
}

// pagingNarrowing names the query that makes a listing smaller.
func pagingNarrowing(c *call) string {
	if p, ok := pageParams[c.target]; ok {
		return fmt.Sprintf("Read smaller pages with query parameter %s (or filter the listing).", p)
	}
	if c.uri != "" {
		return "No query narrows this read; the whole answer is in structuredContent and at the resource " + c.uri + "."
	}
	return "No query narrows this read; the whole answer is in structuredContent."
}
