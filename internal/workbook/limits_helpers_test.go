// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// tightGCPercent makes the collector run often while a test measures the
// heap, so that the sampled heap follows the live heap instead of the
// collector's headroom (up to twice the live heap by default).
const tightGCPercent = 10

// heapGrowth runs fn and returns the peak growth of the heap's objects
// over the heap before it, sampled as the benchmarks do, under a tight
// collector.
func heapGrowth(t testing.TB, fn func()) uint64 {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(tightGCPercent))
	runtime.GC()
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	sampler := startHeapSampler()
	fn()
	return max(sampler.finish(), base) - base
}

// mib converts bytes to MiB for logs.
func mib[T int64 | uint64](n T) float64 { return float64(n) / (1 << 20) }

// readOutcome is one read of a workbook: its profile's JSON size, its
// error and the peak its budget reached.
type readOutcome struct {
	wb     *model.Workbook
	answer int
	err    error
	peak   int64
	limit  int64
}

// readWithBudget profiles path through the internal entry point, which
// exposes the read's budget.
func readWithBudget(t testing.TB, p *Profiler, path string) readOutcome {
	t.Helper()
	wb, mem, err := p.profile(context.Background(), path, "")
	out := readOutcome{wb: wb, err: err}
	if mem != nil {
		out.peak, out.limit = mem.peak, mem.limit
		if mem.used > mem.limit || mem.peak > mem.limit {
			t.Errorf("budget used %d, peak %d, over its limit %d", mem.used, mem.peak, mem.limit)
		}
	}
	if err == nil {
		raw, jerr := json.Marshal(wb)
		if jerr != nil {
			t.Fatalf("profile does not serialise: %v", jerr)
		}
		out.answer = len(raw)
	}
	return out
}

// wantMemoryRefusal checks a read was refused for the memory budget.
func wantMemoryRefusal(t testing.TB, err error) {
	t.Helper()
	wantUnavailable(t, err, "needs more memory than the gateway allows for one read")
}

// wantUnavailable checks err is an unavailable *Error whose message holds
// part.
func wantUnavailable(t testing.TB, err error, part string) {
	t.Helper()
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	if e.Kind != KindUnavailable || !strings.Contains(e.Message, part) {
		t.Fatalf("err = {%v %q}, want unavailable containing %q", e.Kind, e.Message, part)
	}
}

// longestText returns the most characters any text of the profile holds.
func longestText(wb *model.Workbook) int {
	longest := 0
	note := func(s string) { longest = max(longest, len([]rune(s))) }
	for _, s := range wb.Sheets {
		note(s.Name)
		for _, h := range s.Headers {
			note(h)
		}
		for _, c := range s.Columns {
			for _, v := range c.Values {
				note(v)
			}
			for _, o := range c.OddCells {
				note(o.Text)
			}
		}
		for _, row := range s.Sample {
			for _, cell := range row.Cells {
				if text, ok := cell.Value.(string); ok {
					note(text)
				}
			}
		}
		for _, tb := range s.Tables {
			note(tb.Name)
		}
	}
	for _, n := range wb.NamedRanges {
		note(n.Name)
		note(n.RefersTo)
	}
	return longest
}
