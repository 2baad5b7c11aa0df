// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"sync"
)

// logText is the content of one log file, addressed by line so that large
// logs can be windowed without materialising them.
type logText interface {
	// numLines is the number of lines a line scanner finds: a final line
	// without a newline counts, a trailing newline does not add a line.
	numLines() int
	// lineAt returns line i (0-based) without its newline.
	lineAt(i int) string
	// hasFinalNewline reports whether the file ends with a newline.
	hasFinalNewline() bool
}

// storedLog is a small log held as lines.
type storedLog struct {
	lines        []string
	finalNewline bool
}

func (s storedLog) numLines() int         { return len(s.lines) }
func (s storedLog) lineAt(i int) string   { return s.lines[i] }
func (s storedLog) hasFinalNewline() bool { return s.finalNewline && len(s.lines) > 0 }

// newStoredLog builds a log from lines written with a newline after each.
func newStoredLog(lines ...string) storedLog {
	return storedLog{lines: lines, finalNewline: true}
}

// parseStoredLog splits raw file content into a stored log.
func parseStoredLog(content string) storedLog {
	if content == "" {
		return storedLog{}
	}
	final := strings.HasSuffix(content, "\n")
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	return storedLog{lines: lines, finalNewline: final}
}

// generatedLog computes each line on demand.
type generatedLog struct {
	count int
	line  func(i int) string
}

func (g generatedLog) numLines() int         { return g.count }
func (g generatedLog) lineAt(i int) string   { return g.line(i) }
func (g generatedLog) hasFinalNewline() bool { return g.count > 0 }

// bigLogLines is the number of lines big_log_job's step spew writes to
// stdout (recordings 051-055 and the step's script).
const bigLogLines = 20000

var (
	bigLogOnce sync.Once
	bigLog     *logFile
)

// bigLogLine is line i (from 0) of the big log.
func bigLogLine(i int) string { return "line " + strconv.Itoa(i+1) + " of the big log" }

// bigLogStdout returns the generated stdout of big_log_job's step spew.
func bigLogStdout() *logFile {
	bigLogOnce.Do(func() {
		bigLog = newLogFile(generatedLog{count: bigLogLines, line: bigLogLine})
	})
	return bigLog
}

// wideBigLogStdout is the big log with each line padded to width
// characters; nil when width does not exceed its lines.
func wideBigLogStdout(width int) *logFile {
	if width <= len(bigLogLine(bigLogLines-1)) {
		return nil
	}
	pad := strings.Repeat("x", width)
	return newLogFile(generatedLog{count: bigLogLines, line: func(i int) string {
		line := bigLogLine(i)
		return line + " " + pad[:width-len(line)-1]
	}})
}

// writeRaw writes the file's bytes, as a download would return them.
func writeRaw(w io.Writer, t logText) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	n := t.numLines()
	for i := 0; i < n; i++ {
		if _, err := bw.WriteString(t.lineAt(i)); err != nil {
			return err
		}
		if i < n-1 || t.hasFinalNewline() {
			if err := bw.WriteByte('\n'); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
