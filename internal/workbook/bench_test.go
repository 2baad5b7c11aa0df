// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

const (
	benchRows    = 100_000
	benchColumns = 20
)

// writeBenchBook streams a benchRows x benchColumns workbook: integers,
// decimals, dates, repeating categories (shared strings) and unique text.
func writeBenchBook(b *testing.B) string {
	b.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		b.Fatal(err)
	}
	header := make([]any, benchColumns)
	for c := range header {
		header[c] = fmt.Sprintf("Column %d", c+1)
	}
	if err := sw.SetRow("A1", header); err != nil {
		b.Fatal(err)
	}
	row := make([]any, benchColumns)
	for r := 2; r <= benchRows+1; r++ {
		for c := range row {
			switch c % 5 {
			case 0:
				row[c] = r*7 + c
			case 1:
				row[c] = float64(r) / 8
			case 2:
				row[c] = fmt.Sprintf("category %d", r%17)
			case 3:
				row[c] = excelize.Cell{StyleID: dateStyle, Value: 46000 + r%400}
			case 4:
				row[c] = fmt.Sprintf("ID-%08d-%d", r, c)
			}
		}
		if err := sw.SetRow(fmt.Sprintf("A%d", r), row); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.xlsx")
	if err := f.SaveAs(path); err != nil {
		b.Fatal(err)
	}
	return path
}

// heapSampler records the peak of live heap objects while it runs.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// startHeapSampler collects garbage first, so that only what the measured
// code keeps alive counts.
func startHeapSampler() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: heapMetric}}
	h.done.Go(func() {
		ticker := time.NewTicker(2 * time.Millisecond)
		defer ticker.Stop()
		for {
			metrics.Read(sample)
			h.peak = max(h.peak, sample[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-ticker.C:
			}
		}
	})
	return h
}

func (h *heapSampler) finish() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

// BenchmarkProfile100kx20 profiles a 100,000-row x 20-column workbook and
// reports, beside time and allocations, the peak live heap seen during the
// runs (sampled every 2 ms from runtime/metrics).
func BenchmarkProfile100kx20(b *testing.B) {
	benchmarkProfile(b, writeBenchBook(b), func(s model.WorkbookSheet) {
		if s.RowCount != benchRows || !s.ProfileTruncated || len(s.Headers) != benchColumns {
			b.Fatalf("row_count %d, truncated %v, %d headers", s.RowCount, s.ProfileTruncated, len(s.Headers))
		}
	})
}

// benchmarkProfile profiles the workbook at path with the default limits,
// checks each answer's first sheet, and reports the peak live heap.
func benchmarkProfile(b *testing.B, path string, check func(model.WorkbookSheet)) {
	b.Helper()
	p, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	sampler := startHeapSampler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		wb, err := p.Profile(context.Background(), path, "")
		if err != nil {
			b.Fatal(err)
		}
		check(wb.Sheets[0])
	}
	b.StopTimer()
	b.ReportMetric(float64(sampler.finish())/(1<<20), "peak-heap-MiB")
}

// writeSharedStringsBenchBook writes the same shape of workbook the way
// Excel saves one: every text cell points into a shared string table
// (here 8 unique strings per row, 800,000 in all).
func writeSharedStringsBenchBook(b *testing.B) string {
	b.Helper()
	var sheet, table strings.Builder
	sheet.WriteString(`<worksheet><sheetData>`)
	table.WriteString(`<sst>`)
	next := 0
	addString := func(s string) int {
		fmt.Fprintf(&table, `<si><t>%s</t></si>`, s)
		next++
		return next - 1
	}
	for r := 1; r <= benchRows+1; r++ {
		fmt.Fprintf(&sheet, `<row r="%d">`, r)
		for c := range benchColumns {
			ref := cellName(c+1, r)
			switch {
			case r == 1:
				fmt.Fprintf(&sheet, `<c r="%s" t="s"><v>%d</v></c>`, ref, addString(fmt.Sprintf("Column %d", c+1)))
			case c%5 == 0:
				fmt.Fprintf(&sheet, `<c r="%s"><v>%d</v></c>`, ref, r*7+c)
			case c%5 == 1:
				fmt.Fprintf(&sheet, `<c r="%s" s="1"><v>%d</v></c>`, ref, 46000+r%400)
			default:
				fmt.Fprintf(&sheet, `<c r="%s" t="s"><v>%d</v></c>`, ref, addString(fmt.Sprintf("text %d-%d", r, c)))
			}
		}
		sheet.WriteString(`</row>`)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	table.WriteString(`</sst>`)
	styles := `<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`
	path := filepath.Join(b.TempDir(), "shared.xlsx")
	if err := os.WriteFile(path, fuzzBookParts(sheet.String(), table.String(), styles), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkProfile100kx20SharedStrings is BenchmarkProfile100kx20 over a
// workbook whose text lives in a large shared string table.
func BenchmarkProfile100kx20SharedStrings(b *testing.B) {
	benchmarkProfile(b, writeSharedStringsBenchBook(b), func(s model.WorkbookSheet) {
		if s.RowCount != benchRows || !s.ProfileTruncated {
			b.Fatalf("row_count %d, truncated %v", s.RowCount, s.ProfileTruncated)
		}
	})
}
