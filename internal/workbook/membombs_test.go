// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Hostile workbooks beyond issue 11's three: every part the profiler keeps
// in memory, blown up. Each is read under a small budget and must be
// refused for it (or for another stated reason) or answered small, with
// the heap bounded either way.

const (
	sheetRel = `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`
	relsOpen = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
)

// packageWith packs fuzzPackageParts with some parts replaced and others
// streamed from segments.
func packageWith(tb testing.TB, replace map[string]string, streamed ...*streamPart) []byte {
	tb.Helper()
	parts := fuzzPackageParts(
		`<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1"><v>1</v></c></row></sheetData></worksheet>`,
		`<sst/>`, `<styleSheet/>`)
	for name, body := range replace {
		parts[name] = body
	}
	for _, p := range streamed {
		delete(parts, p.name)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(parts) {
		w, _ := zw.Create(name)
		w.Write([]byte(parts[name]))
	}
	for _, p := range streamed {
		p.writeTo(tb, zw)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// repeatedPart streams head, unit times n, tail as the part name.
func repeatedPart(tb testing.TB, name, head, unit string, n int, tail string) *streamPart {
	p := &streamPart{name: name}
	p.add(newSegment(tb, head), 1)
	p.add(newSegment(tb, strings.Repeat(unit, 1000)), n/1000)
	p.add(newSegment(tb, strings.Repeat(unit, n%1000)), 1)
	p.add(newSegment(tb, tail), 1)
	return p
}

func stylesBomb(tb testing.TB) []byte {
	return packageWith(tb, nil, repeatedPart(tb, "xl/styles.xml",
		`<styleSheet><cellXfs>`, `<xf/>`, 6_000_000/raceShrink, `</cellXfs></styleSheet>`))
}

func definedNamesBomb(tb testing.TB) []byte {
	head := strings.TrimSuffix(bombWorkbookXML, `</workbook>`) + `<definedNames>`
	return packageWith(tb, nil, repeatedPart(tb, "xl/workbook.xml",
		head, `<definedName name="n">S!$A$1</definedName>`, 500_000/raceShrink, `</definedNames></workbook>`))
}

func sheetListBomb(tb testing.TB) []byte {
	return packageWith(tb, nil, repeatedPart(tb, "xl/workbook.xml",
		`<workbook><sheets>`, `<sheet name="s" sheetId="1" r:id="rId1"/>`, 300_000/raceShrink, `</sheets></workbook>`))
}

// sharedPartBook lists sheets sheets that all point at one part.
func sharedPartBook(tb testing.TB, sheets int) []byte {
	var wb, rels strings.Builder
	wb.WriteString(`<workbook><sheets>`)
	rels.WriteString(relsOpen)
	for i := 1; i <= sheets; i++ {
		fmt.Fprintf(&wb, `<sheet name="s%d" sheetId="%d" r:id="rId%d"/>`, i, i, i)
		fmt.Fprintf(&rels, sheetRel, i)
	}
	wb.WriteString(`</sheets></workbook>`)
	rels.WriteString(`</Relationships>`)
	return packageWith(tb, map[string]string{"xl/workbook.xml": wb.String(), "xl/_rels/workbook.xml.rels": rels.String()})
}

// wideTextBook has rows rows of 16,384 inline strings of 300 characters.
func wideTextBook(tb testing.TB, rows int) []byte {
	sheet := &streamPart{name: "xl/worksheets/sheet1.xml"}
	cell := newSegment(tb, strings.Repeat(`<c t="inlineStr"><is><t>`+strings.Repeat("w", 300)+`</t></is></c>`, 64))
	sheet.add(newSegment(tb, `<worksheet><sheetData>`), 1)
	for r := 1; r <= rows; r++ {
		sheet.add(newSegment(tb, fmt.Sprintf(`<row r="%d">`, r)), 1)
		sheet.add(cell, maxSheetColumns/64)
		sheet.add(newSegment(tb, `</row>`), 1)
	}
	sheet.add(newSegment(tb, `</sheetData></worksheet>`), 1)
	return packageWith(tb, nil, sheet)
}

// manyEntriesZip is a zip of n empty entries: a directory bomb (zip64
// past 65,535 entries).
func manyEntriesZip(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprint(i), Method: zip.Store}); err != nil {
			tb.Fatal(err)
		}
	}
	zw.Close()
	return buf.Bytes()
}

// repeatedTablesBook lists one table part n times in its sheet.
func repeatedTablesBook(tb testing.TB, n int) []byte {
	sheet := repeatedPart(tb, "xl/worksheets/sheet1.xml",
		`<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row></sheetData><tableParts>`,
		`<tablePart r:id="rId9"/>`, n, `</tableParts></worksheet>`)
	return packageWith(tb, map[string]string{
		"xl/worksheets/_rels/sheet1.xml.rels": relsOpen +
			`<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table1.xml"/></Relationships>`,
		"xl/tables/table1.xml": `<table name="T" displayName="Prices" ref="A1:B1"/>`,
	}, sheet)
}

// TestHostileWorkbooksStayBounded reads each hostile workbook under a
// 16 MiB budget (1 MiB, with workbooks to match, under the race
// detector). The heap may pass twice the budget by a fixed slack: the
// decompressors and short-lived garbage the budget does not track.
func TestHostileWorkbooksStayBounded(t *testing.T) {
	const budget, slack = 16 << 20 / raceShrink, 2 << 20
	tests := []struct {
		name   string
		data   func(testing.TB) []byte
		refuse string // part of the refusal message; "" when answered
	}{
		{"styles", stylesBomb, "needs more memory"},
		{"defined names", definedNamesBomb, "needs more memory"},
		{"sheet list", sheetListBomb, "needs more memory"},
		{"sheets sharing one part", func(tb testing.TB) []byte { return sharedPartBook(tb, 40) }, "read its parts over and over"},
		{"wide sheet of long text", func(tb testing.TB) []byte { return wideTextBook(tb, 6) }, "needs more memory"},
		{"zip directory", func(tb testing.TB) []byte { return manyEntriesZip(tb, 200_000/raceShrink) }, "needs more memory"},
		{"one table listed 200,000 times", func(tb testing.TB) []byte { return repeatedTablesBook(tb, 200_000/raceShrink) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeBomb(t, "hostile.xlsx", tt.data(t))
			p := newProfiler(t, Config{MaxMemory: budget})
			var out readOutcome
			growth := heapGrowth(t, func() { out = readWithBudget(t, p, path) })
			t.Logf("heap growth %.1f MiB, budget peak %.1f MiB, answer %d bytes, err %v", mib(growth), mib(out.peak), out.answer, out.err)
			if tt.refuse != "" {
				wantUnavailable(t, out.err, tt.refuse)
			} else if out.err != nil || out.answer > 64<<10 {
				t.Fatalf("err %v, answer %d bytes: want a small answer", out.err, out.answer)
			}
			if growth > 2*budget+slack {
				t.Errorf("heap grew by %.1f MiB, want under twice the %.0f MiB budget", mib(growth), mib(int64(budget)))
			}
		})
	}
}

// TestRepeatedTablePartIsListedOnce checks the table part a sheet lists
// over and over is read and listed once.
func TestRepeatedTablePartIsListedOnce(t *testing.T) {
	t.Parallel()
	wb := mustProfile(t, newProfiler(t, Config{}), writeBomb(t, "tables.xlsx", repeatedTablesBook(t, 5)), "")
	if got := wb.Sheets[0].Tables; len(got) != 1 || got[0].Name != "Prices" || got[0].Range != "S!A1:B1" {
		t.Errorf("tables = %v", got)
	}
}

// TestWideSheetUnderTheDefaultBudget reads a wide sheet of long text
// under the default budget: refused, or answered within the budget.
func TestWideSheetUnderTheDefaultBudget(t *testing.T) {
	t.Parallel()
	path := writeBomb(t, "wide.xlsx", wideTextBook(t, 3))
	out := readWithBudget(t, newProfiler(t, Config{}), path)
	t.Logf("budget peak %.1f MiB, answer %.1f MiB, err %v", mib(out.peak), mib(int64(out.answer)), out.err)
	if out.err == nil && int64(out.answer) > DefaultMaxMemory {
		t.Errorf("answer of %d bytes is larger than the budget", out.answer)
	}
	if out.err != nil {
		wantMemoryRefusal(t, out.err)
	}
}

// TestZipDirectoryCostBoundsArchiveZip checks the directory estimate made
// before archive/zip reads a package covers the entries it then holds,
// for a plain package and one with zip64 records, and stays small for an
// ordinary workbook.
func TestZipDirectoryCostBoundsArchiveZip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		data    []byte
		maxCost int64
	}{
		{"workbook", fuzzBookParts("<worksheet/>", "<sst/>", "<styleSheet/>"), 64 << 10},
		{"zip64 directory", manyEntriesZip(t, 70_000), 1 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bytes.NewReader(tt.data)
			zr, err := zip.NewReader(r, r.Size())
			if err != nil {
				t.Fatal(err)
			}
			cost := zipDirectoryCost(r, r.Size())
			if need := int64(len(zr.File)) * costZipEntry; cost < need || cost > tt.maxCost {
				t.Errorf("cost %d for %d entries: want between %d and %d", cost, len(zr.File), need, tt.maxCost)
			}
		})
	}
	if cost := zipDirectoryCost(bytes.NewReader([]byte("PK\x03\x04 not a zip")), 18); cost != 0 {
		t.Errorf("a package without a directory costs %d, want 0 (archive/zip refuses it)", cost)
	}
}
