// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "strings"

// This file reproduces how Dagu reads a window of a log file (mapping §1.8):
// precedence tail > head > offset(+limit) > limit alone > first 1000 lines,
// exact line totals below 10 KiB and a sampled estimate plus 5 % above, and
// the "line too long" answer of its line scanner.

const (
	exactCountBelow   = 10 << 10 // files smaller than this are counted exactly
	estimateSampleMax = 1 << 20  // bytes sampled at the start (and middle)
	defaultLogLimit   = 1000     // lines returned when no window is given
	maxScannedLineLen = 64 << 10 // the scanner's buffer; longer lines fail
	lineTooLongText   = "Error: Line too long to read."
)

// logFile is a log's content plus its precomputed size and line total.
type logFile struct {
	text       logText
	size       int64
	totalLines int
	isEstimate bool
	// firstTooLong is the index of the first line the scanner cannot read,
	// or -1.
	firstTooLong int
}

// newLogFile measures a log once; logs never change after that.
func newLogFile(t logText) *logFile {
	f := &logFile{text: t, firstTooLong: -1}
	f.size = f.measureSize()
	f.totalLines, f.isEstimate = f.countLines()
	return f
}

func (f *logFile) measureSize() int64 {
	var size int64
	n := f.text.numLines()
	for i := 0; i < n; i++ {
		l := len(f.text.lineAt(i))
		size += int64(l)
		if l >= maxScannedLineLen && f.firstTooLong < 0 {
			f.firstTooLong = i
		}
	}
	if n > 0 {
		size += int64(n - 1)
		if f.text.hasFinalNewline() {
			size++
		}
	}
	return size
}

// countLines returns the exact count for small files and Dagu's sampled
// estimate for large ones.
func (f *logFile) countLines() (int, bool) {
	if f.size < exactCountBelow {
		return f.text.numLines(), false
	}
	sample := min(int64(estimateSampleMax), f.size)
	startCount := f.newlinesIn(0, sample)
	var middleCount int
	twoSamples := f.size > 2*sample
	if twoSamples {
		middleCount = f.newlinesIn(f.size/2, f.size/2+sample)
	}
	if startCount+middleCount == 0 {
		return 1, true
	}
	var avg float64
	if twoSamples {
		avg = float64(2*sample) / float64(startCount+middleCount)
	} else {
		avg = float64(sample) / float64(startCount)
	}
	estimated := int(float64(f.size) / avg)
	return int(float64(estimated) * 1.05), true
}

// newlinesIn counts newline bytes at offsets in [lo, hi).
func (f *logFile) newlinesIn(lo, hi int64) int {
	var offset int64
	count := 0
	n := f.text.numLines()
	for i := 0; i < n && offset < hi; i++ {
		nl := offset + int64(len(f.text.lineAt(i)))
		hasNewline := i < n-1 || f.text.hasFinalNewline()
		if hasNewline && nl >= lo && nl < hi {
			count++
		}
		offset = nl + 1
	}
	return count
}

// windowRequest carries the window parameters of a log request; zero or
// negative values mean "not given", as on the server.
type windowRequest struct {
	Head, Tail, Offset, Limit int
}

// logWindow is the answer to a window request, in the REST `Log` shape.
type logWindow struct {
	first, count int // lines [first, first+count) of the file
	tooLong      bool
	totalLines   int
	hasMore      bool
	isEstimate   bool
}

// window selects the lines a request asks for.
func (f *logFile) window(req windowRequest) logWindow {
	if f.size == 0 {
		return logWindow{}
	}
	var w logWindow
	switch {
	case req.Tail > 0:
		w = f.tailWindow(req.Tail)
	case req.Head > 0:
		w = f.headWindow(req.Head)
	case req.Offset > 0:
		w = f.rangeWindow(req.Offset, limitOrDefault(req.Limit))
	default:
		w = f.rangeWindow(1, limitOrDefault(req.Limit))
	}
	if w.tooLong {
		return logWindow{tooLong: true}
	}
	w.isEstimate = f.isEstimate
	return w
}

func limitOrDefault(limit int) int {
	if limit <= 0 {
		return defaultLogLimit
	}
	return limit
}

func (f *logFile) headWindow(n int) logWindow {
	count := min(n, f.text.numLines())
	// The scanner reads one line past the window before it stops.
	w := logWindow{first: 0, count: count, totalLines: f.totalLines}
	w.tooLong = f.anyTooLong(0, min(n+1, f.text.numLines()))
	w.hasMore = count < f.totalLines
	return w
}

func (f *logFile) tailWindow(n int) logWindow {
	if n >= f.totalLines {
		return f.headWindow(f.totalLines)
	}
	lines := f.text.numLines()
	count := min(n, lines)
	w := logWindow{first: lines - count, count: count, totalLines: f.totalLines}
	w.tooLong = f.anyTooLong(0, lines)
	w.hasMore = count < f.totalLines
	return w
}

func (f *logFile) rangeWindow(offset, limit int) logWindow {
	if offset > f.totalLines {
		return logWindow{totalLines: f.totalLines}
	}
	lines := f.text.numLines()
	first := min(offset-1, lines)
	last := min(offset-1+limit, f.totalLines, lines)
	count := max(last-first, 0)
	w := logWindow{first: first, count: count, totalLines: f.totalLines}
	w.tooLong = f.anyTooLong(0, first+count)
	w.hasMore = offset+count-1 < f.totalLines
	return w
}

// anyTooLong reports whether the scanner meets an unreadable line among
// lines [from, to).
func (f *logFile) anyTooLong(from, to int) bool {
	return f.firstTooLong >= from && f.firstTooLong < to
}

// content joins the window's lines with "\n", without a final newline.
func (f *logFile) content(w logWindow) string {
	if w.tooLong {
		return lineTooLongText
	}
	var b strings.Builder
	if lines := f.text.numLines(); lines > 0 {
		b.Grow(int(f.size/int64(lines)+1) * w.count)
	}
	for i := w.first; i < w.first+w.count; i++ {
		if i > w.first {
			b.WriteByte('\n')
		}
		b.WriteString(f.text.lineAt(i))
	}
	return b.String()
}

// logBody renders a window in the REST `Log` shape, omitting zero values
// the way Dagu does (an empty file answers just {"content":""}).
func (f *logFile) logBody(req windowRequest) obj {
	w := f.window(req)
	body := obj{"content": f.content(w)}
	if w.count > 0 {
		body["lineCount"] = w.count
	}
	if w.totalLines > 0 {
		body["totalLines"] = w.totalLines
	}
	if w.hasMore {
		body["hasMore"] = true
	}
	if w.isEstimate {
		body["isEstimate"] = true
	}
	return body
}
