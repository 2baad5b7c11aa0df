// SPDX-License-Identifier: Apache-2.0

package testkit

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// LogBuffer is an in-memory log sink (an io.Writer for slog handlers and
// process output) that goroutines may write while the test reads it. The
// zero value is ready to use and keeps everything.
type LogBuffer struct {
	// Limit, when positive, is how many bytes the buffer keeps: what is
	// written beyond it is counted (Total) and dropped.
	Limit int
	mu    sync.Mutex
	buf   bytes.Buffer
	total int64
}

// Write appends p to the buffer, up to Limit.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += int64(len(p))
	kept := p
	if b.Limit > 0 {
		kept = p[:min(max(b.Limit-b.buf.Len(), 0), len(p))]
	}
	b.buf.Write(kept)
	return len(p), nil
}

// Total is how many bytes were written, kept or not.
func (b *LogBuffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// Tail returns the last n bytes kept.
func (b *LogBuffer) Tail(n int) string {
	s := b.String()
	return s[max(0, len(s)-n):]
}

// String returns everything written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// JSONLines decodes the JSON log lines (one object a line, as slog's JSON
// handler writes them) written so far, and fails the test on a line that is
// not a JSON object. An empty buffer has no lines.
func (b *LogBuffer) JSONLines(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if raw == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatalf("log line %q: %v", raw, err)
		}
		out = append(out, m)
	}
	return out
}
