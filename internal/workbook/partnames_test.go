// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// caseTwinPackage holds the sheet part the relationships name,
// xl/worksheets/sheet1.xml with header v1, and a twin spelt
// xl/worksheets/Sheet1.xml with header v2, twinFirst deciding which comes
// first in the zip.
func caseTwinPackage(twinFirst bool, twinBody string) testPackage {
	p := sheetsPackage([2]string{"Data", inlineRows([]any{"v1", "w"}, []any{1, 2})})
	twin := zipEntry{name: "xl/worksheets/Sheet1.xml", body: twinBody}
	if twinFirst {
		return append(testPackage{twin}, p...)
	}
	return append(p, twin)
}

// TestPartNamesCompareWithoutCase reads packages that hold two parts
// whose names differ only in case (OPC part names are case-insensitive):
// the one the relationships name wins, in either zip order; a package
// where neither is spelt as named is refused as ambiguous, unless both
// hold the same bytes. Issue 40, row 4: the sheet was profiled from the
// part that neither the relationships nor the content types name.
func TestPartNamesCompareWithoutCase(t *testing.T) {
	t.Parallel()
	twin := inlineRows([]any{"v2", "w"}, []any{1, 2})
	for _, twinFirst := range []bool{true, false} {
		path := caseTwinPackage(twinFirst, twin).write(t, "twins.xlsx")
		wb := mustProfile(t, newProfiler(t, Config{}), path, "")
		if got := wb.Sheets[0].Headers; !reflect.DeepEqual(got, []string{"v1", "w"}) {
			t.Errorf("twin first %v: headers %q, want the named part's [v1 w]", twinFirst, got)
		}
	}

	renamed := func(p testPackage) testPackage {
		return p.edit(t, "xl/_rels/workbook.xml.rels", func(s string) string {
			return strings.Replace(s, `Target="worksheets/sheet1.xml"`, `Target="worksheets/SHEET1.xml"`, 1)
		})
	}
	runErrorCases(t, []errorCase{{"neither spelt as named", Config{}, renamed(caseTwinPackage(false, twin)).write(t, "twins.xlsx"),
		"", KindUnavailable, FieldPath,
		"twins.xlsx: workbook is ambiguous and cannot be profiled: the package holds 2 different parts named xl/worksheets/SHEET1.xml " +
			"(part names compare without case) and none is spelt as its relationships name it"}})

	same := inlineRows([]any{"v1", "w"}, []any{1, 2})
	wb := mustProfile(t, newProfiler(t, Config{}), renamed(caseTwinPackage(true, same)).write(t, "same.xlsx"), "")
	if got := wb.Sheets[0].Headers; !reflect.DeepEqual(got, []string{"v1", "w"}) {
		t.Errorf("twins of one content: headers %q", got)
	}
	only := renamed(sheetsPackage([2]string{"Data", same})).write(t, "only.xlsx")
	if got := mustProfile(t, newProfiler(t, Config{}), only, "").Sheets[0].Headers; !reflect.DeepEqual(got, []string{"v1", "w"}) {
		t.Errorf("a part named in another case: headers %q", got)
	}
}

// TestSheetThatCannotBeFoundIsSkipped reads workbooks where one sheet's
// part cannot be found, in each way it can be lost: that sheet is listed
// by name with a warning that says why, and the others are profiled.
// Issue 40, row 5: an empty r:id refused the whole workbook as "damaged
// or malformed", though its other sheet read fine.
func TestSheetThatCannotBeFoundIsSkipped(t *testing.T) {
	t.Parallel()
	base := sheetsPackage(
		[2]string{"Lost", inlineRows([]any{"a", "b"}, []any{1, 2})},
		[2]string{"Good", inlineRows([]any{"k", "v"}, []any{"x", 1})},
	)
	tests := []struct {
		name string
		pkg  testPackage
		why  string
	}{
		{"empty relationship id", base.edit(t, "xl/workbook.xml", func(s string) string {
			return strings.Replace(s, `r:id="rId1"`, `r:id=""`, 1)
		}), "the workbook lists it without a relationship id (its r:id is empty)"},
		{"unknown relationship id", base.edit(t, "xl/workbook.xml", func(s string) string {
			return strings.Replace(s, `r:id="rId1"`, `r:id="rId9"`, 1)
		}), `the workbook's relationships hold no id "rId9" for it`},
		{"missing part", base.edit(t, "xl/_rels/workbook.xml.rels", func(s string) string {
			return strings.Replace(s, `Target="worksheets/sheet1.xml"`, `Target="worksheets/gone.xml"`, 1)
		}), "its part xl/worksheets/gone.xml is missing from the package"},
		{"damaged part", base.edit(t, "xl/worksheets/sheet1.xml", func(s string) string {
			return strings.Replace(s, `<c r="B1"`, `<c r="A1"`, 1)
		}), "its part xl/worksheets/sheet1.xml is damaged: row 1: cell A1 is out of order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wb, err := newProfiler(t, Config{}).Profile(context.Background(), tt.pkg.write(t, "lost.xlsx"), "")
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			lost, good := sheetNamed(t, wb, "Lost"), sheetNamed(t, wb, "Good")
			if !lost.Skipped || lost.HeaderRow != 0 || good.Skipped || !reflect.DeepEqual(good.Headers, []string{"k", "v"}) {
				t.Errorf("Lost %+v\nGood %+v", lost, good)
			}
			if want := "Lost: not profiled: " + tt.why + "; the sheet is listed by name only"; !hasWarning(wb, want) {
				t.Errorf("warnings %q lack %q", wb.Warnings, want)
			}
		})
	}
}
