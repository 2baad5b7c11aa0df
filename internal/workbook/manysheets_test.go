// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"fmt"
	"strings"
	"testing"
)

// manySheetsPackage lists n sheets in the workbook part, each with its own
// relationship id: the first DefaultMaxSheets point to small parts of
// their own, the others, which are listed by name only, to the first
// part. A file of about 1 MB whose sheet list is the whole of its cost.
func manySheetsPackage(n int) testPackage {
	var list, rels strings.Builder
	var parts [][2]string
	for i := 1; i <= n; i++ {
		part := 1
		if i <= DefaultMaxSheets {
			part = i
			parts = append(parts, [2]string{fmt.Sprintf("Sheet %d", i), inlineRows([]any{"h"}, []any{i})})
		}
		fmt.Fprintf(&list, `<sheet name="Sheet %d" sheetId="%d" r:id="rId%d"/>`, i, i, i)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i, relTypeDoc, part)
	}
	return sheetsPackage(parts...).
		with(zipEntry{name: "xl/workbook.xml", body: `<workbook xmlns="` + nsMain + `" xmlns:r="` + nsRels + `"><sheets>` +
			list.String() + `</sheets></workbook>`}).
		with(zipEntry{name: "xl/_rels/workbook.xml.rels", body: `<Relationships ` + relsNS + `>` + rels.String() + `</Relationships>`})
}

// TestManySheetsAreLocatedInOnePass: a workbook part of 100,000 sheets
// (issue 40's review; 6,250 under the race detector) is answered with the first MaxSheets profiled and the
// others listed by name. Each sheet's part was found by scanning the
// relationships from the start, a minute of CPU for this file before the
// first sheet was read; through the gateway the answer came after 63 s
// against a 30 s --call-timeout. Now the relationships are indexed once
// (BenchmarkManySheets measures the CPU).
func TestManySheetsAreLocatedInOnePass(t *testing.T) {
	t.Parallel()
	n := 100_000 / raceShrink // the race detector makes the full list take minutes
	path := manySheetsPackage(n).write(t, "many.xlsx")
	wb := mustProfile(t, newProfiler(t, Config{}), path, "")
	if len(wb.Sheets) != n {
		t.Fatalf("%d sheets listed, want %d", len(wb.Sheets), n)
	}
	for i, s := range wb.Sheets {
		if want := i >= DefaultMaxSheets; s.Skipped != want || s.Name != fmt.Sprintf("Sheet %d", i+1) {
			t.Fatalf("sheet %d: %q skipped %v", i+1, s.Name, s.Skipped)
		}
	}
	want := fmt.Sprintf("workbook has %d sheets; only the first 50 were profiled (the gateway's sheet limit), the other %d are listed by name only", n, n-50)
	if !hasWarning(wb, want) {
		t.Errorf("no warning about the sheet limit: %v", wb.Warnings)
	}
}

// TestRepeatedRelationshipIDTakesTheFirst: a relationship id listed twice
// names the part of its first entry, for a sheet as for a table, as the
// scan of the list did.
func TestRepeatedRelationshipIDTakesTheFirst(t *testing.T) {
	t.Parallel()
	pkg := sheetsPackage(
		[2]string{"One", inlineRows([]any{"first"}, []any{1})},
		[2]string{"Two", inlineRows([]any{"second"}, []any{2})},
	).edit(t, "xl/_rels/workbook.xml.rels", func(s string) string {
		return strings.Replace(s, `Id="rId2"`, `Id="rId1"`, 1)
	}).edit(t, "xl/workbook.xml", func(s string) string {
		return strings.Replace(s, `r:id="rId2"`, `r:id="rId1"`, 1)
	})
	wb := mustProfile(t, newProfiler(t, Config{}), pkg.write(t, "dup.xlsx"), "")
	for _, name := range []string{"One", "Two"} {
		if s := sheetNamed(t, wb, name); len(s.Headers) != 1 || s.Headers[0] != "first" {
			t.Errorf("%s: headers %v, want [first] (rId1's first entry)", name, s.Headers)
		}
	}
}
