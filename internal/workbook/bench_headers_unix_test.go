// SPDX-License-Identifier: Apache-2.0

//go:build unix

package workbook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// processCPU is the CPU time the process has used, user and system.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU runs the benchmark's loop and reports the process's CPU time
// per op (the garbage collector's included), which a loaded machine does
// not inflate as it does the time per op.
func reportCPU(b *testing.B, op func()) {
	b.Helper()
	b.ReportAllocs()
	start := processCPU(b)
	n := 0
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64(processCPU(b)-start)/float64(n)/1e6, "cpu-ms/op")
}

// BenchmarkHeaderNaming names one header row of n equal headers (issue
// 40: 16,384 of them took 11-13 s of CPU when each repeat tried _2, _3...
// afresh). The time per op is the CPU of naming the row: it runs on one
// goroutine.
func BenchmarkHeaderNaming(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 14} {
		texts := make([]string, n)
		for i := range texts {
			texts[i] = "Amount"
		}
		b.Run(fmt.Sprintf("duplicates=%d", n), func(b *testing.B) {
			reportCPU(b, func() {
				var warn warnings
				nameHeaders("S", 1, 1, texts, &warn)
			})
		})
	}
}

// writeDuplicateHeadersBook writes sheets of one row of 16,384 equal
// headers each (the shape of POI's 53105.xlsx, generated here).
func writeDuplicateHeadersBook(tb testing.TB, sheets int) string {
	tb.Helper()
	row := `<worksheet><sheetData><row r="1">` +
		strings.Repeat(`<c t="s"><v>0</v></c>`, maxSheetColumns) + `</row></sheetData></worksheet>`
	var parts [][2]string
	for i := range sheets {
		parts = append(parts, [2]string{fmt.Sprintf("Sheet%d", i+1), row})
	}
	pkg := sheetsPackage(parts...).with(zipEntry{name: "xl/sharedStrings.xml",
		body: `<sst xmlns="` + nsMain + `"><si><t>Amount</t></si></sst>`})
	path := filepath.Join(tb.TempDir(), "duplicates.xlsx")
	if err := os.WriteFile(path, pkg.bytesTB(tb), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkProfileDuplicateHeaders profiles whole workbooks of one and of
// five sheets of 16,384 equal headers through Profile.
func BenchmarkProfileDuplicateHeaders(b *testing.B) {
	for _, sheets := range []int{1, 5} {
		path := writeDuplicateHeadersBook(b, sheets)
		p, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sheets=%d", sheets), func(b *testing.B) {
			reportCPU(b, func() {
				wb, err := p.Profile(context.Background(), path, "")
				if err != nil {
					b.Fatal(err)
				}
				checkDuplicateHeaders(b, wb.Sheets[sheets-1])
			})
		})
	}
}

func checkDuplicateHeaders(b *testing.B, s model.WorkbookSheet) {
	if len(s.Headers) != maxSheetColumns || s.Headers[maxSheetColumns-1] != "Amount_16384" {
		b.Fatalf("%d headers, last %q", len(s.Headers), s.Headers[len(s.Headers)-1])
	}
}

// BenchmarkManySheets profiles a workbook part of 100,000 sheets that all
// point to one small part (the first 50 are profiled): finding each
// sheet's part scanned the relationships from the start, a minute of CPU.
func BenchmarkManySheets(b *testing.B) {
	path := filepath.Join(b.TempDir(), "many.xlsx")
	if err := os.WriteFile(path, manySheetsPackage(100_000).bytesTB(b), 0o600); err != nil {
		b.Fatal(err)
	}
	p, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	reportCPU(b, func() {
		if _, err := p.Profile(context.Background(), path, ""); err != nil {
			b.Fatal(err)
		}
	})
}
