// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestErrorCellsAreNullEverywhere reads columns of error cells: as the
// definition says, an error cell is null, with its warning, in every
// statistic (filled, blank, distinct, values, min and max, odd cells),
// in the used range, the block and row_count, and in header detection.
// Issue 40, row 3: errors counted in filled and distinct, #N/A was listed
// among the values and odd cells, and an error could be a header.
func TestErrorCellsAreNullEverywhere(t *testing.T) {
	t.Parallel()
	path := sheetsPackage(
		[2]string{"Data", inlineRows(
			[]any{"#N/A", "Report"}, // one value: not the header
			[]any{"id", "lookup", "ratio", nil, "#REF!"},
			[]any{1, "#N/A", "#DIV/0!"},
			[]any{2, "x", 0.5},
			[]any{3, "#N/A", 0.25},
			[]any{4, "y", "#DIV/0!"},
			[]any{"#REF!", "#REF!", "#REF!"}, // no value: not a data row
		)},
		[2]string{"Headers", inlineRows(
			[]any{"k", "#VALUE!", "v"},
			[]any{1, 2, 3},
		)},
	).write(t, "errors.xlsx")
	wb := mustProfile(t, newProfiler(t, Config{}), path, "")

	data := sheetNamed(t, wb, "Data")
	got := []any{data.UsedRange, data.Range, data.HeaderRow, data.Headers, data.RowCount}
	want := []any{"A1:C6", "Data!A2:C6", 2, []string{"id", "lookup", "ratio"}, 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("used_range, range, header_row, headers, row_count = %v, want %v", got, want)
	}
	columns := []model.ColumnProfile{
		{Name: "id", Type: "integer", Filled: 4, Distinct: 4, Min: int64(1), Max: int64(4)},
		{Name: "lookup", Type: "string", Filled: 2, Blank: 2, Distinct: 2, Values: []string{"x", "y"}},
		{Name: "ratio", Type: "number", Filled: 2, Blank: 2, Distinct: 2, Min: 0.25, Max: 0.5},
	}
	for _, want := range columns {
		if got := columnNamed(t, data, want.Name); !reflect.DeepEqual(got, want) {
			t.Errorf("column %s:\n got %#v\nwant %#v", want.Name, got, want)
		}
	}
	sample, _ := json.Marshal(data.Sample[0])
	if want := `{"_row":3,"id":1,"lookup":null,"ratio":null}`; string(sample) != want {
		t.Errorf("sample = %s, want %s", sample, want)
	}

	headers := sheetNamed(t, wb, "Headers")
	if want := []string{"k", "B", "v"}; !reflect.DeepEqual(headers.Headers, want) {
		t.Errorf("headers = %q, want %q", headers.Headers, want)
	}
	for _, w := range []string{
		"Data!A1: error cell #N/A", "Data!E2: error cell #REF!", "Data!B3: error cell #N/A", "Data!C3: error cell #DIV/0!",
		"Data!A7: error cell #REF!", "Headers!B1: error cell #VALUE!", "Headers!B1: header is empty; column named B",
	} {
		if !hasWarning(wb, w) {
			t.Errorf("missing warning %q in %q", w, wb.Warnings)
		}
	}
}
