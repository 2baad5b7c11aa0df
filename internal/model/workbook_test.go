// SPDX-License-Identifier: Apache-2.0

package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestColumnTypesJSONKeepsHeaderOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		types ColumnTypes
		want  string
	}{
		{"empty", ColumnTypes{}, `{}`},
		{"nil", nil, `{}`},
		{"ordered", ColumnTypes{{"zeta", ColumnInteger}, {"alpha", ColumnDate}, {`quo"te`, ColumnString}},
			`{"zeta":"integer","alpha":"date","quo\"te":"string"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(tt.types)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tt.want {
				t.Errorf("got %s, want %s", raw, tt.want)
			}
			var back ColumnTypes
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if len(tt.types) > 0 && !reflect.DeepEqual(back, tt.types) {
				t.Errorf("round trip %v, want %v", back, tt.types)
			}
		})
	}
}

func TestSampleRowJSON(t *testing.T) {
	t.Parallel()
	row := SampleRow{Row: 7, Cells: []SampleCell{
		{"b", int64(3)}, {"a", 2.5}, {"when", "2026-10-01"}, {"ok", true}, {"none", nil},
	}}
	raw, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_row":7,"b":3,"a":2.5,"when":"2026-10-01","ok":true,"none":null}`
	if string(raw) != want {
		t.Errorf("got %s, want %s", raw, want)
	}
	var back SampleRow
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, row) {
		t.Errorf("round trip %#v, want %#v", back, row)
	}
}

func TestOrderedJSONRejectsNonObjects(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{`[]`, `"x"`, `{"a":1}`, `{`} {
		var types ColumnTypes
		var row SampleRow
		errTypes := json.Unmarshal([]byte(doc), &types)
		errRow := json.Unmarshal([]byte(doc), &row)
		if doc == `{"a":1}` {
			if errTypes == nil || errRow != nil {
				t.Errorf("%s: types err %v (want one), row err %v (want none)", doc, errTypes, errRow)
			}
			continue
		}
		if errTypes == nil || errRow == nil {
			t.Errorf("%s: want errors, got %v / %v", doc, errTypes, errRow)
		}
	}
}

func TestWorkbookSheetOmitsOptionalFields(t *testing.T) {
	t.Parallel()
	raw, err := json.Marshal(WorkbookSheet{Headers: []string{}, Types: ColumnTypes{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"sample"`, `"hidden_rows"`, `"skipped"`} {
		if strings.Contains(string(raw), key) {
			t.Errorf("%s present in %s", key, raw)
		}
	}
	raw, _ = json.Marshal(WorkbookSheet{Sample: []SampleRow{}, HiddenRows: 2})
	for _, key := range []string{`"sample":[]`, `"hidden_rows":2`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("%s missing from %s", key, raw)
		}
	}
}
