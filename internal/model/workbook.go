// SPDX-License-Identifier: Apache-2.0

package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Column types a workbook profile assigns (the `types` values).
const (
	ColumnString   = "string"
	ColumnNumber   = "number"
	ColumnInteger  = "integer"
	ColumnBoolean  = "boolean"
	ColumnDate     = "date"
	ColumnDateTime = "datetime"
)

// Date systems of a workbook (`date_system`).
const (
	DateSystem1900 = "1900"
	DateSystem1904 = "1904"
)

// Scope of a workbook-wide defined name (`named_ranges[].scope`); a
// sheet-scoped name carries the sheet name instead.
const NameScopeWorkbook = "workbook"

// SampleRowKey is the key that carries a sample row's 1-based sheet row.
const SampleRowKey = "_row"

// Workbook is the data of the `workbook` target: the profile of an Excel
// workbook on the gateway's host.
type Workbook struct {
	// Path is the resolved absolute path of the workbook.
	Path        string          `json:"path"`
	DateSystem  string          `json:"date_system"`
	Sheets      []WorkbookSheet `json:"sheets"`
	NamedRanges []NamedRange    `json:"named_ranges"`
	Warnings    []string        `json:"warnings"`
}

// WorkbookSheet profiles one sheet of a workbook.
type WorkbookSheet struct {
	Name   string `json:"name"`
	Hidden bool   `json:"hidden"`
	// UsedRange bounds every cell holding a value, like `A1:F120`.
	UsedRange string `json:"used_range"`
	// Range is the detected data block, like `Sheet!A1:F120`.
	Range            string          `json:"range"`
	HeaderRow        int             `json:"header_row"`
	Headers          []string        `json:"headers"`
	Types            ColumnTypes     `json:"types"`
	RowCount         int             `json:"row_count"`
	HiddenRows       int             `json:"hidden_rows,omitempty"`
	Columns          []ColumnProfile `json:"columns"`
	ProfileTruncated bool            `json:"profile_truncated"`
	Tables           []SheetTable    `json:"tables"`
	// Sample is present (possibly empty) only for a sheet with a header row.
	Sample []SampleRow `json:"sample,omitzero"`
	// Skipped marks a sheet listed by name only, its other fields empty:
	// one over the operator's sheet limit, or one whose part cannot be
	// found or read (a warning says why).
	Skipped bool `json:"skipped,omitempty"`
}

// ColumnProfile describes the profiled cells of one column.
type ColumnProfile struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Filled   int    `json:"filled"`
	Blank    int    `json:"blank"`
	Distinct int    `json:"distinct"`
	// Values lists the distinct values of a string or boolean column with
	// at most 20 of them, most frequent first.
	Values []string `json:"values,omitempty"`
	// Min and Max are JSON numbers for numeric columns and ISO text for
	// date and datetime columns.
	Min      any       `json:"min,omitempty"`
	Max      any       `json:"max,omitempty"`
	Odd      int       `json:"odd,omitempty"`
	OddCells []OddCell `json:"odd_cells,omitempty"`
}

// OddCell is a cell whose kind differs from its column's type.
type OddCell struct {
	Cell string `json:"cell"`
	Text string `json:"text"`
}

// SheetTable is an Excel table on a sheet.
type SheetTable struct {
	Name  string `json:"name"`
	Range string `json:"range"`
}

// NamedRange is a defined name of the workbook.
type NamedRange struct {
	Name     string `json:"name"`
	RefersTo string `json:"refers_to"`
	// Scope is "workbook" or the name of the sheet the name belongs to.
	Scope string `json:"scope"`
}

// ColumnType pairs a header with its column type.
type ColumnType struct {
	Header string
	Type   string
}

// ColumnTypes maps headers to column types in header order. It serialises
// as one JSON object whose keys keep that order, which a Go map would not.
type ColumnTypes []ColumnType

// MarshalJSON writes the pairs as a JSON object in header order.
func (ct ColumnTypes) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, pair := range ct {
		if err := writeMember(&buf, i, pair.Header, pair.Type); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON object of string values, keeping key order.
func (ct *ColumnTypes) UnmarshalJSON(data []byte) error {
	pairs, err := decodeOrderedObject(data)
	if err != nil {
		return err
	}
	out := make(ColumnTypes, 0, len(pairs))
	for _, p := range pairs {
		var typ string
		if err := json.Unmarshal(p.raw, &typ); err != nil {
			return fmt.Errorf("types[%q]: %w", p.key, err)
		}
		out = append(out, ColumnType{Header: p.key, Type: typ})
	}
	*ct = out
	return nil
}

// SampleCell is one typed cell of a sample row. Value is nil (empty or
// error cell), a string, a bool, an int64 or a float64.
type SampleCell struct {
	Header string
	Value  any
}

// SampleRow is one typed data row of a sheet. It serialises as one JSON
// object: `_row` first, then the cells keyed by header in header order.
type SampleRow struct {
	Row   int
	Cells []SampleCell
}

// MarshalJSON writes `_row` followed by the cells in header order.
func (sr SampleRow) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	if err := writeMember(&buf, 0, SampleRowKey, sr.Row); err != nil {
		return nil, err
	}
	for i, cell := range sr.Cells {
		if err := writeMember(&buf, i+1, cell.Header, cell.Value); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a sample row object, keeping key order. Numbers
// decode as int64 when integral, else float64.
func (sr *SampleRow) UnmarshalJSON(data []byte) error {
	pairs, err := decodeOrderedObject(data)
	if err != nil {
		return err
	}
	out := SampleRow{Cells: make([]SampleCell, 0, len(pairs))}
	for _, p := range pairs {
		if p.key == SampleRowKey {
			if err := json.Unmarshal(p.raw, &out.Row); err != nil {
				return fmt.Errorf("sample %s: %w", SampleRowKey, err)
			}
			continue
		}
		value, err := decodeSampleValue(p.raw)
		if err != nil {
			return fmt.Errorf("sample[%q]: %w", p.key, err)
		}
		out.Cells = append(out.Cells, SampleCell{Header: p.key, Value: value})
	}
	*sr = out
	return nil
}

func writeMember(buf *bytes.Buffer, index int, key string, value any) error {
	if index > 0 {
		buf.WriteByte(',')
	}
	k, err := json.Marshal(key)
	if err != nil {
		return err
	}
	v, err := json.Marshal(value)
	if err != nil {
		return err
	}
	buf.Write(k)
	buf.WriteByte(':')
	buf.Write(v)
	return nil
}

type orderedMember struct {
	key string
	raw json.RawMessage
}

// decodeOrderedObject splits a JSON object into its members in document order.
func decodeOrderedObject(data []byte) ([]orderedMember, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return nil, errors.New("expected a JSON object")
	}
	var members []orderedMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		members = append(members, orderedMember{key: key, raw: raw})
	}
	return members, nil
}

func decodeSampleValue(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	num, ok := v.(json.Number)
	if !ok {
		return v, nil
	}
	if i, err := num.Int64(); err == nil {
		return i, nil
	}
	return num.Float64()
}
