// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Excel 2013 and later write this extension beside the workbook's own
// workbookPr; 110 of 554 workbooks of public corpora carry it (issue 40).
const x15WorkbookPrExt = `<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}">` +
	`<x15:workbookPr chartTrackingRefBase="1"/></ext></extLst>`

// dateShape is one way a workbook shows a date or a time, one column each.
type dateShape struct {
	header   string
	value    any    // what the cell holds
	numFmt   int    // built-in number format, or
	code     string // a custom one
	isoCell  bool   // stored as ISO text (t="d") instead of a serial
	want1900 string
	want1904 string
}

// dateShapes covers every date shape of the definition: date, date-time
// and time formats, built-in and custom, a date format showing a time, a
// time format showing a day, and ISO-dated cells.
var dateShapes = []dateShape{
	{"date", 46296, 14, "", false, "2026-10-01", "2030-10-02"},
	{"first day", 1, 14, "", false, "1900-01-01", "1904-01-02"},
	{"datetime", 46296.604166666664, 22, "", false, "2026-10-01T14:30:00", "2030-10-02T14:30:00"},
	{"custom date", 46297, 0, "yyyy-mm-dd", false, "2026-10-02", "2030-10-03"},
	{"custom datetime", 46297.75, 0, "dd/mm/yyyy hh:mm", false, "2026-10-02T18:00:00", "2030-10-03T18:00:00"},
	{"date showing a time", 46296.25, 14, "", false, "2026-10-01T06:00:00", "2030-10-02T06:00:00"},
	{"time", 0.5, 21, "", false, "12:00:00", "12:00:00"},
	{"time showing a day", 1.5, 21, "", false, "1900-01-01T12:00:00", "1904-01-02T12:00:00"},
	{"iso date", "2026-10-01", 0, "", true, "2026-10-01", "2026-10-01"},
}

// dateShapesBook writes one column per shape, with the workbook part's
// workbookPr element replaced by workbookPr.
func dateShapesBook(t *testing.T, name string, edit func(workbookXML string) string) string {
	t.Helper()
	b := newBook(t)
	headers := make([]any, len(dateShapes))
	values := make([]any, len(dateShapes))
	for i, shape := range dateShapes {
		headers[i], values[i] = shape.header, shape.value
	}
	b.set("Sheet1", "A1", headers...).set("Sheet1", "A2", values...)
	for i, shape := range dateShapes {
		if shape.isoCell {
			continue
		}
		cell := cellName(i+1, 2)
		b.style("Sheet1", cell, cell, shape.numFmt, shape.code)
	}
	path := b.save(name)
	for i, shape := range dateShapes {
		if shape.isoCell {
			ref := cellName(i+1, 2)
			rewritePart(t, path, "xl/worksheets/sheet1.xml", regexpOnce(t,
				`<c r="`+ref+`"[^>]*>.*?</c>`, fmt.Sprintf(`<c r="%s" t="d"><v>%s</v></c>`, ref, shape.value)))
		}
	}
	rewritePart(t, path, "xl/workbook.xml", func(s string) string { return edit(s) })
	return path
}

// regexpOnce edits a part's text, replacing the first match of pattern.
func regexpOnce(t *testing.T, pattern, replacement string) func(string) string {
	re := regexp.MustCompile(pattern)
	return func(s string) string {
		t.Helper()
		loc := re.FindStringIndex(s)
		if loc == nil {
			t.Fatalf("part does not match %q", pattern)
		}
		return s[:loc[0]] + replacement + s[loc[1]:]
	}
}

// withWorkbookPr replaces the workbook's own workbookPr and appends ext
// (extension elements) at the end of the workbook element.
func withWorkbookPr(pr, ext string) func(string) string {
	re := regexp.MustCompile(`<workbookPr[^>]*>(</workbookPr>)?`)
	return func(s string) string {
		s = re.ReplaceAllLiteralString(s, pr)
		return strings.Replace(s, "</workbook>", ext+"</workbook>", 1)
	}
}

// prefixedMain writes every element of the workbook part with the prefix
// x bound to the main namespace instead of the default namespace.
func prefixedMain(pr string) func(string) string {
	return func(s string) string {
		s = withWorkbookPr(pr, "")(s)
		s = regexp.MustCompile(`<(/?)([A-Za-z])`).ReplaceAllString(s, "<${1}x:${2}")
		s = strings.Replace(s, `xmlns="`, `xmlns:x="`, 1)
		return strings.ReplaceAll(s, "<x:x:", "<x:")
	}
}

// strictNamespace moves the workbook part to the strict OOXML namespace.
func strictNamespace(pr string) func(string) string {
	return func(s string) string {
		s = withWorkbookPr(pr, "")(s)
		return strings.Replace(s, "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
			"http://purl.oclc.org/ooxml/spreadsheetml/main", 1)
	}
}

// TestDateSystemComesFromTheWorkbooksOwnWorkbookPr reads every date
// shape under workbook parts that say their date system in the ways Excel
// and other writers do. Issue 40, row 1: the extension element
// <x15:workbookPr> reset the 1904 system, and every date came out 1,462
// days early.
func TestDateSystemComesFromTheWorkbooksOwnWorkbookPr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"1904 with Excel's x15 extension", withWorkbookPr(`<workbookPr date1904="1"/>`, x15WorkbookPrExt), "1904"},
		{"1904 written true, extension first", func(s string) string {
			s = withWorkbookPr(`<workbookPr date1904="true"/>`, "")(s)
			return strings.Replace(s, "<fileVersion", `<extLst><ext uri="{x}"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst><fileVersion`, 1)
		}, "1904"},
		{"1900 with an extension claiming 1904", withWorkbookPr(`<workbookPr/>`,
			`<extLst><ext uri="{x}"><x15:workbookPr date1904="1"/></ext></extLst>`), "1900"},
		{"1900 beside a foreign element of the same name", withWorkbookPr(
			`<workbookPr date1904="0"/><workbookPr xmlns="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" date1904="1"/>`, ""), "1900"},
		{"1904 under a prefix", prefixedMain(`<workbookPr date1904="1"/>`), "1904"},
		{"1904 in the strict namespace", strictNamespace(`<workbookPr date1904="true"/>`), "1904"},
		{"1904 in the Office 2007 beta namespace", func(s string) string {
			s = withWorkbookPr(`<workbookPr date1904="1"/>`, x15WorkbookPrExt)(s)
			return strings.Replace(s, "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
				"http://schemas.microsoft.com/office/excel/2006/2", 1)
		}, "1904"},
		{"1900 without workbookPr", withWorkbookPr(``, x15WorkbookPrExt), "1900"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wb := mustProfile(t, newProfiler(t, Config{}), dateShapesBook(t, "dates.xlsx", tt.edit), "")
			if wb.DateSystem != tt.want {
				t.Errorf("date_system = %s, want %s", wb.DateSystem, tt.want)
			}
			s := wb.Sheets[0]
			if len(s.Sample) != 1 {
				t.Fatalf("sample = %v, want one row", s.Sample)
			}
			for i, shape := range dateShapes {
				want := shape.want1900
				if tt.want == "1904" {
					want = shape.want1904
				}
				if got := s.Sample[0].Cells[i].Value; got != want {
					t.Errorf("%s: sample value %v, want %s", shape.header, got, want)
				}
				col := columnNamed(t, s, shape.header)
				if col.Min != want || col.Max != want {
					t.Errorf("%s: min %v max %v, want %s", shape.header, col.Min, col.Max, want)
				}
			}
		})
	}
}
