// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/xuri/excelize/v2"
)

// typedBook has a merged title, a blank row and a blank column A before a
// header in row 3, then five data rows of every kind the profile types.
func typedBook(t *testing.T) string {
	b := newBook(t)
	const s = "Data"
	b.must(b.f.SetSheetName("Sheet1", s))
	b.set(s, "A1", "Sales report")
	b.must(b.f.MergeCell(s, "A1", "H1"))
	b.set(s, "B3", "ID", "Amount", "When", "Stamp", "Active", "Code", "Clock")
	rows := [][]any{
		{1, 10.5, 46296, 46296.604166666664, true, "007", 0.5},
		{2, 20, 46297, 46297.25, false, "010", 0.25},
		{3, "N/A", 46298, 46298.75, true, "007", 0.75},
		{4, 30.25, 46299, 46299.5, true, "007", 0.125},
		{5, nil, 46300, 46300, true, "010", 0.5},
	}
	for i, row := range rows {
		b.set(s, fmt.Sprintf("B%d", 4+i), row...)
	}
	b.style(s, "D4", "D8", 14, "")
	b.style(s, "E4", "E8", 0, "yyyy-mm-dd hh:mm")
	b.style(s, "H4", "H8", 21, "")
	b.style(s, "G4", "G8", 49, "") // text format: the codes keep their zeros
	return b.save("typed.xlsx")
}

// columnTypes builds ColumnTypes from header, type pairs.
func columnTypes(pairs ...string) model.ColumnTypes {
	out := model.ColumnTypes{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, model.ColumnType{Header: pairs[i], Type: pairs[i+1]})
	}
	return out
}

func TestProfileTypedSheet(t *testing.T) {
	t.Parallel()
	wb := mustProfile(t, newProfiler(t, Config{}), typedBook(t), "")
	s := sheetNamed(t, wb, "Data")

	checks := []struct {
		name      string
		got, want any
	}{
		{"used_range", s.UsedRange, "A1:H8"},
		{"range", s.Range, "Data!B3:H8"},
		{"header_row", s.HeaderRow, 3},
		{"headers", s.Headers, []string{"ID", "Amount", "When", "Stamp", "Active", "Code", "Clock"}},
		{"types", s.Types, columnTypes("ID", "integer", "Amount", "number", "When", "date",
			"Stamp", "datetime", "Active", "boolean", "Code", "string", "Clock", "datetime")},
		{"row_count", s.RowCount, 5},
		{"profile_truncated", s.ProfileTruncated, false},
		{"sample rows", len(s.Sample), 5},
		{"date_system", wb.DateSystem, "1900"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}

	columns := []model.ColumnProfile{
		{Name: "ID", Type: "integer", Filled: 5, Distinct: 5, Min: int64(1), Max: int64(5)},
		{Name: "Amount", Type: "number", Filled: 4, Blank: 1, Distinct: 4, Min: 10.5, Max: 30.25,
			Odd: 1, OddCells: []model.OddCell{{Cell: "C6", Text: "N/A"}}},
		{Name: "When", Type: "date", Filled: 5, Distinct: 5, Min: "2026-10-01", Max: "2026-10-05"},
		{Name: "Stamp", Type: "datetime", Filled: 5, Distinct: 5,
			Min: "2026-10-01T14:30:00", Max: "2026-10-05T00:00:00"},
		{Name: "Active", Type: "boolean", Filled: 5, Distinct: 2, Values: []string{"true", "false"}},
		{Name: "Code", Type: "string", Filled: 5, Distinct: 2, Values: []string{"007", "010"}},
		{Name: "Clock", Type: "datetime", Filled: 5, Distinct: 4, Min: "03:00:00", Max: "18:00:00"},
	}
	for _, want := range columns {
		if got := columnNamed(t, s, want.Name); !reflect.DeepEqual(got, want) {
			t.Errorf("column %s:\n got %#v\nwant %#v", want.Name, got, want)
		}
	}
}

func TestProfileSampleIsTyped(t *testing.T) {
	t.Parallel()
	wb := mustProfile(t, newProfiler(t, Config{}), typedBook(t), "")
	s := sheetNamed(t, wb, "Data")
	got, err := json.Marshal(s.Sample[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_row":4,"ID":1,"Amount":10.5,"When":"2026-10-01","Stamp":"2026-10-01T14:30:00",` +
		`"Active":true,"Code":"007","Clock":"12:00:00"}`
	if string(got) != want {
		t.Errorf("sample[0] = %s\nwant %s", got, want)
	}
	got, _ = json.Marshal(s.Sample[4])
	if !strings.Contains(string(got), `"Amount":null`) {
		t.Errorf("sample[4] = %s, want a null Amount", got)
	}
}

func TestProfileSheetShapes(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.sheet("Empty").sheet("HeaderOnly").sheet("OneValue").sheet("List").sheet("Hidden").sheet("VeryHidden")
	b.set("Sheet1", "A1", "k", "v").set("Sheet1", "A2", "a", 1)
	b.set("HeaderOnly", "C2", "x", "y")
	b.set("OneValue", "B2", "alone")
	b.set("List", "A2", "Name").set("List", "A3", "ann").set("List", "A5", "bob")
	b.set("Hidden", "A1", "h1", "h2")
	b.must(b.f.SetSheetVisible("Hidden", false))
	b.must(b.f.SetSheetVisible("VeryHidden", false, true))
	wb := mustProfile(t, newProfiler(t, Config{}), b.save("shapes.xlsx"), "")

	tests := []struct {
		sheet     string
		hidden    bool
		used      string
		rng       string
		headerRow int
		headers   []string
		rowCount  int
		sampleLen int // -1: no sample at all
	}{
		{"Sheet1", false, "A1:B2", "Sheet1!A1:B2", 1, []string{"k", "v"}, 1, 1},
		{"Empty", false, "", "", 0, []string{}, 0, -1},
		{"HeaderOnly", false, "C2:D2", "HeaderOnly!C2:D2", 2, []string{"x", "y"}, 0, 0},
		{"OneValue", false, "B2:B2", "OneValue!B2:B2", 2, []string{"alone"}, 0, 0},
		{"List", false, "A2:A5", "List!A2:A5", 2, []string{"Name"}, 2, 2},
		{"Hidden", true, "A1:B1", "Hidden!A1:B1", 1, []string{"h1", "h2"}, 0, 0},
		{"VeryHidden", true, "", "", 0, []string{}, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.sheet, func(t *testing.T) {
			s := sheetNamed(t, wb, tt.sheet)
			got := []any{s.Hidden, s.UsedRange, s.Range, s.HeaderRow, s.Headers, s.RowCount}
			want := []any{tt.hidden, tt.used, tt.rng, tt.headerRow, tt.headers, tt.rowCount}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			if tt.sampleLen < 0 && s.Sample != nil || tt.sampleLen >= 0 && (s.Sample == nil || len(s.Sample) != tt.sampleLen) {
				t.Errorf("sample = %v, want length %d", s.Sample, tt.sampleLen)
			}
			raw, _ := json.Marshal(s)
			if hasKey := strings.Contains(string(raw), `"sample":`); hasKey != (tt.sampleLen >= 0) {
				t.Errorf("JSON %s: sample key present = %v", raw, hasKey)
			}
		})
	}
	if got := []string{wb.Sheets[0].Name, wb.Sheets[6].Name}; !reflect.DeepEqual(got, []string{"Sheet1", "VeryHidden"}) {
		t.Errorf("sheet order %v", got)
	}
}

func TestProfileHeaderRules(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.set("Sheet1", "A1", "Amount", nil, "Amount", " Line\nBreak ", "_row", "Amount")
	b.set("Sheet1", "A2", 1, 2, 3, 4, 5, 6, "extra")
	// Excel keeps a merged cell's value in its first cell only: the
	// covered header cell is empty.
	b.must(b.f.MergeCell("Sheet1", "A1", "B1"))
	wb := mustProfile(t, newProfiler(t, Config{}), b.save("headers.xlsx"), "")
	s := wb.Sheets[0]
	wantHeaders := []string{"Amount", "B", "Amount_2", "Line Break", "_row_2", "Amount_3", "G"}
	if !reflect.DeepEqual(s.Headers, wantHeaders) {
		t.Errorf("headers = %q, want %q", s.Headers, wantHeaders)
	}
	for _, w := range []string{
		"Sheet1!B1: header is empty; column named B",
		`Sheet1: duplicate header "Amount" renamed Amount_2`,
		`Sheet1: duplicate header "_row" renamed _row_2`,
		`Sheet1: duplicate header "Amount" renamed Amount_3`,
		"Sheet1!G1: header is empty; column named G",
	} {
		if !hasWarning(wb, w) {
			t.Errorf("missing warning %q in %q", w, wb.Warnings)
		}
	}
}

func TestProfileHiddenRowsAndTruncation(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.set("Sheet1", "A1", "n", "label")
	for i := 1; i <= 30; i++ {
		b.set("Sheet1", fmt.Sprintf("A%d", i+1), i, fmt.Sprintf("r%d", i%3))
	}
	b.must(b.f.SetRowVisible("Sheet1", 5, false))
	b.must(b.f.SetRowVisible("Sheet1", 25, false))
	b.must(b.f.SetRowVisible("Sheet1", 40, false)) // empty: not a data row
	path := b.save("rows.xlsx")

	tests := []struct {
		maxRows   int
		truncated bool
		filled    int
		max       any
	}{
		{10, true, 10, int64(10)},
		{30, false, 30, int64(30)},
		{0, false, 30, int64(30)}, // default limit
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.maxRows), func(t *testing.T) {
			s := mustProfile(t, newProfiler(t, Config{MaxRows: tt.maxRows}), path, "").Sheets[0]
			n := columnNamed(t, s, "n")
			got := []any{s.RowCount, s.HiddenRows, s.ProfileTruncated, n.Filled, n.Blank, n.Max}
			want := []any{30, 2, tt.truncated, tt.filled, 0, tt.max}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("row_count, hidden_rows, truncated, filled, blank, max = %v, want %v", got, want)
			}
		})
	}
}

func TestProfileTablesAndNames(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.sheet("Other Sheet")
	b.set("Sheet1", "A1", "k", "v").set("Sheet1", "A2", "a", 1).set("Sheet1", "A3", "b", 2)
	b.must(b.f.AddTable("Sheet1", &excelize.Table{Range: "A1:B3", Name: "Prices"}))
	b.must(b.f.SetDefinedName(&excelize.DefinedName{Name: "AllValues", RefersTo: "Sheet1!$B$2:$B$3"}))
	b.must(b.f.SetDefinedName(&excelize.DefinedName{Name: "Local", RefersTo: "'Other Sheet'!$A$1", Scope: "Other Sheet"}))
	wb := mustProfile(t, newProfiler(t, Config{}), b.save("tables.xlsx"), "")

	wantTables := []model.SheetTable{{Name: "Prices", Range: "Sheet1!A1:B3"}}
	if got := sheetNamed(t, wb, "Sheet1").Tables; !reflect.DeepEqual(got, wantTables) {
		t.Errorf("tables = %v, want %v", got, wantTables)
	}
	if got := sheetNamed(t, wb, "Other Sheet"); got.Tables == nil || len(got.Tables) != 0 {
		t.Errorf("Other Sheet tables = %#v, want empty", got.Tables)
	}
	wantNames := []model.NamedRange{
		{Name: "AllValues", RefersTo: "Sheet1!$B$2:$B$3", Scope: "workbook"},
		{Name: "Local", RefersTo: "'Other Sheet'!$A$1", Scope: "Other Sheet"},
	}
	if !reflect.DeepEqual(wb.NamedRanges, wantNames) {
		t.Errorf("named_ranges = %v, want %v", wb.NamedRanges, wantNames)
	}
}

func TestProfileDateSystem1904(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	on := true
	b.must(b.f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &on}))
	b.set("Sheet1", "A1", "day", "n").set("Sheet1", "A2", 1, 1).set("Sheet1", "A3", 44833.5, 2)
	b.style("Sheet1", "A2", "A3", 14, "")
	wb := mustProfile(t, newProfiler(t, Config{}), b.save("1904.xlsx"), "")
	day := columnNamed(t, wb.Sheets[0], "day")
	got := []any{wb.DateSystem, day.Type, day.Min, day.Max}
	want := []any{"1904", "datetime", "1904-01-02T00:00:00", "2026-09-30T12:00:00"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("date_system, type, min, max = %v, want %v", got, want)
	}
}

func TestProfileFormulasAndErrors(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.set("Sheet1", "A1", "a", "sum", "pending", "lookup")
	b.set("Sheet1", "A2", 2).set("Sheet1", "A3", 3)
	for _, c := range []struct{ cell, formula string }{
		{"B2", "A2*10"}, {"C2", "A2+1"}, {"D2", "NA()"}, {"D3", "1/0"},
	} {
		b.must(b.f.SetCellFormula("Sheet1", c.cell, c.formula))
	}
	path := b.save("formulas.xlsx")
	const sheet = "xl/worksheets/sheet1.xml"
	rewritePart(t, path, sheet, replaceOnce(t, `t="str"><f>A2*10</f>`, `><f>A2*10</f><v>20</v>`))
	rewritePart(t, path, sheet, replaceOnce(t, `t="str"><f>NA()</f>`, `t="e"><f>NA()</f><v>#N/A</v>`))
	rewritePart(t, path, sheet, replaceOnce(t, `t="str"><f>1/0</f>`, `t="e"><f>1/0</f><v>#DIV/0!</v>`))

	wb := mustProfile(t, newProfiler(t, Config{}), path, "")
	s := wb.Sheets[0]
	sum, pending, lookup := columnNamed(t, s, "sum"), columnNamed(t, s, "pending"), columnNamed(t, s, "lookup")
	// Error cells are null (the definition): lookup holds no value.
	got := []any{sum.Type, sum.Filled, sum.Min, pending.Filled, lookup.Filled, lookup.Blank, lookup.Odd, lookup.OddCells}
	want := []any{"integer", 1, int64(20), 0, 0, 2, 0, []model.OddCell(nil)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	sample, _ := json.Marshal(s.Sample[0])
	if want := `{"_row":2,"a":2,"sum":20,"pending":null,"lookup":null}`; string(sample) != want {
		t.Errorf("sample = %s, want %s", sample, want)
	}
	for _, w := range []string{
		"Sheet1!D2: error cell #N/A", "Sheet1!D3: error cell #DIV/0!",
		"Sheet1: 1 formula cells have no cached value and read as empty (the workbook was saved without recalculation)",
	} {
		if !hasWarning(wb, w) {
			t.Errorf("missing warning %q in %q", w, wb.Warnings)
		}
	}
}

func TestProfileWarningCap(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.set("Sheet1", "A1", "x", "y")
	for i := 2; i <= 151; i++ {
		b.must(b.f.SetCellFormula("Sheet1", fmt.Sprintf("A%d", i), "NA()"))
	}
	path := b.save("errors.xlsx")
	rewritePart(t, path, "xl/worksheets/sheet1.xml", func(s string) string {
		return strings.ReplaceAll(s, `t="str"><f>NA()</f>`, `t="e"><f>NA()</f><v>#N/A</v>`)
	})
	wb := mustProfile(t, newProfiler(t, Config{}), path, "")
	if len(wb.Warnings) != maxWarnings+1 {
		t.Fatalf("%d warnings, want %d", len(wb.Warnings), maxWarnings+1)
	}
	if got, want := wb.Warnings[maxWarnings], "50 more warnings"; got != want {
		t.Errorf("last warning %q, want %q", got, want)
	}
}

func TestProfileSheetLimit(t *testing.T) {
	t.Parallel()
	b := newBook(t)
	b.sheet("Two").sheet("Three")
	b.set("Three", "A1", "a", "b")
	wb := mustProfile(t, newProfiler(t, Config{MaxSheets: 2}), b.save("sheets.xlsx"), "")
	third := sheetNamed(t, wb, "Three")
	if !third.Skipped || third.HeaderRow != 0 || len(wb.Sheets) != 3 {
		t.Errorf("third sheet %+v of %d", third, len(wb.Sheets))
	}
	want := "workbook has 3 sheets; only the first 2 were profiled (the gateway's sheet limit), the other 1 are listed by name only"
	if !hasWarning(wb, want) {
		t.Errorf("warnings %q lack %q", wb.Warnings, want)
	}
}

func TestProfileHonoursContext(t *testing.T) {
	t.Parallel()
	path := typedBook(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newProfiler(t, Config{}).Profile(ctx, path, "")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestProfileJSONShape(t *testing.T) {
	t.Parallel()
	wb := mustProfile(t, newProfiler(t, Config{}), typedBook(t), "")
	raw, err := json.Marshal(wb)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{
		`"path":`, `"date_system":"1900"`, `"named_ranges":[]`, `"warnings":[]`, `"used_range":`,
		`"header_row":3`, `"row_count":5`, `"profile_truncated":false`, `"tables":[]`, `"odd_cells":[`,
		`"types":{"ID":"integer","Amount":"number",`,
	} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	for _, absent := range []string{`"hidden_rows"`, `"skipped"`} {
		if strings.Contains(string(raw), absent) {
			t.Errorf("JSON has %s", absent)
		}
	}
}
