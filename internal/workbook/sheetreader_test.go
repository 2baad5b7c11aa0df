// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// readRows renders every row of a worksheet as "num[h]: col:type:text ...".
func readRows(doc string) ([]string, []string, error) {
	sr := newSheetReader(strings.NewReader(doc), nil)
	var out []string
	for {
		row, err := sr.next()
		if err != nil {
			return out, nil, err
		}
		if row == nil {
			break
		}
		line := fmt.Sprint(row.num)
		if row.hidden {
			line += "h"
		}
		line += ":"
		for i := range row.cells {
			c := &row.cells[i]
			line += fmt.Sprintf(" %s:%c:%d:%s", columnName(c.col), c.typ, c.style, row.text(c))
		}
		if row.formulasWithoutValue > 0 {
			line += fmt.Sprintf(" (+%d uncached)", row.formulasWithoutValue)
		}
		out = append(out, line)
	}
	ids, err := sr.tableRelationIDs()
	return out, ids, err
}

func TestSheetReaderRows(t *testing.T) {
	t.Parallel()
	doc := `<worksheet xmlns:r="rel"><dimension ref="A1:C3"/><sheetData>` +
		`<row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r="C1" s="2"><v>1.5</v></c></row>` +
		`<row r="3" hidden="1"><c r="B3" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r><rPh><t>x</t></rPh></is></c>` +
		`<c t="str"><f>A1</f></c><c t="e"><f>NA()</f><v>#N/A</v></c></row>` +
		`<row/><row><c s="4"/><c><v>a&amp;b</v></c></row>` +
		`</sheetData><mergeCells><mergeCell ref="A1:B1"/></mergeCells>` +
		`<tableParts count="2"><tablePart r:id="rId1"/><tablePart r:id="rId7"/></tableParts></worksheet>`
	rows, ids, err := readRows(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1: A:s:0:0 C:n:2:1.5",
		"3h: B:i:0:inline D:e:0:#N/A (+1 uncached)",
		"4:",
		"5: B:n:0:a&b",
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n got %q\nwant %q", rows, want)
	}
	if !reflect.DeepEqual(ids, []string{"rId1", "rId7"}) {
		t.Errorf("table ids %q", ids)
	}
}

func TestSheetReaderRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, want string
	}{
		{"repeated cell", `<sheetData><row><c r="B1"><v>1</v></c><c r="B1"><v>2</v></c></row></sheetData>`, "out of order"},
		{"cells out of order", `<sheetData><row><c r="C1"><v>1</v></c><c r="A1"><v>2</v></c></row></sheetData>`, "out of order"},
		{"row past the grid", `<sheetData><row r="1048577"/></sheetData>`, "beyond the sheet's last row"},
		{"column past the grid", `<sheetData><row><c r="XFD1"/><c/></row></sheetData>`, "beyond the sheet's last column"},
		{"bad row number", `<sheetData><row r="x"/></sheetData>`, "invalid row number"},
		{"bad cell reference", `<sheetData><row><c r="1A"/></row></sheetData>`, "no column"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readRows(tt.doc)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
