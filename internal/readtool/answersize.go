// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// DefaultMaxAnswerBytes is the default cap on one answer's data (the
// structuredContent a read returns): 4 MiB holds a tail of 10,000 log
// lines of 400 characters, far more than an agent reads at once, while the
// memory an answer costs on its way out (its encoding, the envelope, the
// SDK's JSON-RPC message, about answerMemoryFactor times its size) stays
// a small share of the process's memory budget.
const DefaultMaxAnswerBytes = 4 << 20

// answerOverhead is what the cap keeps for the data around the log text
// (line counts, the step list of run_logs) when it sizes the text.
const answerOverhead = 16 << 10

// fitLogs cuts the text of a log read that passes budget bytes on whole
// lines, keeping the end of the window the query asked for, and says so
// in the window's cut (hasMore set, the narrowing query, capBytes named).
// Other data and logs that fit are returned as they are. Logs are copied
// before they are cut: the run cache may hold the originals.
func fitLogs(c *call, data any, budget, capBytes int) any {
	switch d := data.(type) {
	case *model.StepLog:
		if len(d.StdoutContent)+len(d.StderrContent) <= budget {
			return data
		}
		return cutStepLog(c, d, budget, capBytes)
	case *model.RunLogs:
		if len(d.SchedulerLog.Content) <= budget {
			return data
		}
		cut := *d
		cut.SchedulerLog = cutWindow(c, d.SchedulerLog, budget, capBytes)
		return &cut
	}
	return data
}

// cutStepLog cuts both streams of a step log to share budget bytes of
// text; the line counts follow the stream they describe.
func cutStepLog(c *call, d *model.StepLog, budget, capBytes int) *model.StepLog {
	blocks := []textBlock{logBlock(c, "stdoutContent", d.StdoutContent), logBlock(c, "stderrContent", d.StderrContent)}
	fitBlocks(blocks, budget)
	cut := *d
	cut.StdoutContent, cut.StderrContent = blockText(&blocks[0], d.StdoutContent), blockText(&blocks[1], d.StderrContent)
	described := &blocks[0]
	if d.Stream == "stderr" {
		described = &blocks[1]
	}
	if left := described.leftOut(); left > 0 || described.partial {
		cut.LineCount = described.kept
		cut.HasMore = true
		cut.Cut = answerCut(c, described, capBytes)
	}
	return &cut
}

// cutWindow cuts one log window to budget bytes of text.
func cutWindow(c *call, w model.LogWindow, budget, capBytes int) model.LogWindow {
	blocks := []textBlock{logBlock(c, "content", w.Content)}
	fitBlocks(blocks, budget)
	b := blocks[0]
	w.Content = blockText(&b, w.Content)
	if b.leftOut() > 0 || b.partial {
		w.LineCount, w.HasMore = b.kept, true
		w.Cut = answerCut(c, &b, capBytes)
	}
	return w
}

// logBlock is a log text as the text mode's blocks hold it, keeping the
// newest lines unless the query reads from the start.
func logBlock(c *call, path, text string) textBlock {
	return textBlock{textField: textField{path: path, kind: kindLog, log: true}, lines: splitLines(text), keepNewest: !readsFromStart(c)}
}

// blockText is the kept part of a block as log text: whole lines, or the
// part of a line too long for the budget, with the original's final line
// break.
func blockText(b *textBlock, original string) string {
	if b.leftOut() == 0 && !b.partial {
		return original
	}
	lines := b.keptLines()
	if b.partial {
		lines = []string{partialLine(lines[0], b.keepNewest)}
	}
	text := strings.Join(lines, "\n")
	if text != "" && strings.HasSuffix(original, "\n") {
		text += "\n"
	}
	return text
}

// answerCut describes a cut block: what was left out and the window of
// the same kind that fits.
func answerCut(c *call, b *textBlock, limit int) *model.AnswerCut {
	n := max(b.kept, 1)
	query := narrowingQuery(c, n)
	which := "oldest"
	if !b.keepNewest {
		which = "last"
	}
	note := fmt.Sprintf("Cut on whole lines to stay within this gateway's answer size of %d bytes: left out the %d %s %s of the window. Read with query %q to see such a window whole.",
		limit, b.leftOut(), which, plural(b.leftOut(), "line", "lines"), query)
	if b.partial {
		note += " The one line kept was itself too long and is shown in part."
	}
	return &model.AnswerCut{LeftOutLines: b.leftOut(), Query: query, Note: note}
}

// narrowingQuery is the query of a window of the same kind as the read's,
// n lines long: the first n lines of a head, the n lines from the same
// offset, the newest n lines of a tail or the default window; a step
// log's stream is kept.
func narrowingQuery(c *call, n int) string {
	q := c.logQuery()
	var window string
	switch {
	case q.Head != 0:
		window = fmt.Sprintf("head=%d", n)
	case q.Offset != 0 || q.Limit != 0:
		window = fmt.Sprintf("offset=%d&limit=%d", max(q.Offset, 1), n)
	default:
		window = fmt.Sprintf("tail=%d", n)
	}
	if q.Stream != "" {
		return "stream=" + q.Stream + "&" + window
	}
	return window
}

// answerTooLarge refuses data that would pass the answer cap and has no
// log text to cut: the query parameter that pages it, if any.
func answerTooLarge(c *call, size, limit int) *Error {
	how := "No query narrows this read."
	if p, ok := pageParams[c.target]; ok {
		how = fmt.Sprintf("Read smaller pages with query parameter %s (or filter the listing).", p)
	}
	e := newError(CodeResourceUnavailable, fmt.Sprintf("The answer would be %d bytes, more than this gateway's answer size of %d bytes. %s", size, limit, how))
	decorate(e, c)
	return e
}
