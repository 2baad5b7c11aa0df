// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"reflect"
	"strings"
	"testing"
)

func TestSerialTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		serial   float64
		date1904 bool
		want     string
		ok       bool
	}{
		{1, false, "1900-01-01T00:00:00", true},
		{59, false, "1900-02-28T00:00:00", true},
		{61, false, "1900-03-01T00:00:00", true},
		{46296, false, "2026-10-01T00:00:00", true},
		{46296.604166666664, false, "2026-10-01T14:30:00", true},
		{46296.99999999, false, "2026-10-02T00:00:00", true}, // rounds to the second
		{0, true, "1904-01-01T00:00:00", true},
		{44833.5, true, "2026-09-30T12:00:00", true},
		{2958465, false, "9999-12-31T00:00:00", true},
		{2958466, false, "", false},
		{-1, false, "", false},
	}
	for _, tt := range tests {
		tm, _, ok := serialTime(tt.serial, tt.date1904)
		got := ""
		if ok {
			got = tm.Format(isoDateTime)
		}
		if ok != tt.ok || got != tt.want {
			t.Errorf("serialTime(%v, %v) = %q %v, want %q %v", tt.serial, tt.date1904, got, ok, tt.want, tt.ok)
		}
		if integral := tt.serial == float64(int64(tt.serial)); ok && integral && timeSerial(tm, tt.date1904) != tt.serial {
			t.Errorf("timeSerial(serialTime(%v)) = %v", tt.serial, timeSerial(tm, tt.date1904))
		}
	}
}

func TestNumberValue(t *testing.T) {
	t.Parallel()
	typer := &cellTyper{}
	tests := []struct {
		raw    string
		format formatKind
		want   cellValue
	}{
		{"42", formatNumber, cellValue{kind: valueNumber, num: 42}},
		{"1E+3", formatNumber, cellValue{kind: valueNumber, num: 1000}},
		{"abc", formatNumber, cellValue{kind: valueString, text: "abc"}},
		{"1e999", formatNumber, cellValue{kind: valueString, text: "1e999"}},
		{"46296", formatDate, cellValue{kind: valueDate, text: "2026-10-01", num: 46296}},
		{"46296.5", formatDate, cellValue{kind: valueDateTime, text: "2026-10-01T12:00:00", num: 46296.5}},
		{"46296", formatDateTime, cellValue{kind: valueDateTime, text: "2026-10-01T00:00:00", num: 46296}},
		{"0.75", formatTime, cellValue{kind: valueTime, text: "18:00:00", num: 0.75}},
		{"46296.75", formatTime, cellValue{kind: valueDateTime, text: "2026-10-01T18:00:00", num: 46296.75}},
		{"-3", formatDate, cellValue{kind: valueNumber, num: -3}},
	}
	for _, tt := range tests {
		if got := typer.numberValue(tt.raw, tt.format); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("numberValue(%q, %v) = %+v, want %+v", tt.raw, tt.format, got, tt.want)
		}
	}
}

func TestJSONValueAndDisplay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v       cellValue
		json    any
		display string
	}{
		{cellValue{kind: valueNumber, num: 7}, int64(7), "7"},
		{cellValue{kind: valueNumber, num: -0.5}, -0.5, "-0.5"},
		{cellValue{kind: valueNumber, num: 1 << 60}, float64(1 << 60), "1152921504606850000"},
		{cellValue{kind: valueNumber, num: 0.1 + 0.2}, 0.1 + 0.2, "0.3"},
		{cellValue{kind: valueNumber, num: 1e21}, 1e21, "1e+21"},
		{cellValue{kind: valueBool, b: true}, true, "TRUE"},
		{cellValue{kind: valueString, text: "007"}, "007", "007"},
		{cellValue{}, nil, ""},
	}
	for _, tt := range tests {
		if got := tt.v.jsonValue(); !reflect.DeepEqual(got, tt.json) {
			t.Errorf("%+v jsonValue = %#v, want %#v", tt.v, got, tt.json)
		}
		if got := tt.v.display(); got != tt.display {
			t.Errorf("%+v display = %q, want %q", tt.v, got, tt.display)
		}
	}
}

func TestISODateValue(t *testing.T) {
	t.Parallel()
	typer := &cellTyper{}
	tests := []struct {
		raw  string
		kind valueKind
		text string
	}{
		{"2026-10-01", valueDate, "2026-10-01"},
		{"2026-10-01T14:30:00", valueDateTime, "2026-10-01T14:30:00"},
		{"2026-10-01T14:30:00Z", valueDateTime, "2026-10-01T14:30:00"},
		{"14:30:00", valueTime, "14:30:00"},
		{"soon", valueString, "soon"},
	}
	for _, tt := range tests {
		got := typer.isoDateValue(tt.raw)
		if got.kind != tt.kind || got.text != tt.text {
			t.Errorf("isoDateValue(%q) = %+v, want %v %q", tt.raw, got, tt.kind, tt.text)
		}
	}
	if got := typer.isoDateValue("2026-10-01").num; got != 46296 {
		t.Errorf("serial of 2026-10-01 = %v, want 46296", got)
	}
}

func TestClassifyFormatCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code string
		want formatKind
	}{
		{"General", formatNumber},
		{"0.00", formatNumber},
		{"0.00E+00", formatNumber},
		{"@", formatNumber},
		{"yyyy-mm-dd", formatDate},
		{"d-mmm", formatDate},
		{"mmmm", formatDate},
		{"[$-409]dddd, mmmm dd, yyyy", formatDate},
		{"hh:mm", formatTime},
		{"mm:ss", formatTime},
		{"h:mm AM/PM", formatTime},
		{"yyyy-mm-dd hh:mm:ss", formatDateTime},
		{"[h]:mm:ss", formatNumber},
		{"[Red]0.00", formatNumber},
		{`0 "days"`, formatNumber},
		{`0\d`, formatNumber},
		{"0;[Red]yyyy", formatNumber},
		{"#,##0_);(#,##0)", formatNumber},
		{`"unterminated`, formatNumber},
		{"[unterminated", formatNumber},
	}
	for _, tt := range tests {
		if got := classifyFormatCode(tt.code); got != tt.want {
			t.Errorf("classifyFormatCode(%q) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestParseStyles(t *testing.T) {
	t.Parallel()
	styles := `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy/mm/dd"/>` +
		`<numFmt numFmtId="14" formatCode="0.00"/></numFmts>` +
		`<cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="14"/><xf numFmtId="22"/><xf numFmtId="46"/></cellXfs></styleSheet>`
	formats, err := parseStyles(strings.NewReader(styles), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := cellFormats{formatNumber, formatDate, formatNumber, formatDateTime, formatNumber}
	if !reflect.DeepEqual(formats, want) {
		t.Errorf("formats = %v, want %v", formats, want)
	}
	if formats.kind(99) != formatNumber || formats.kind(-1) != formatNumber {
		t.Error("unknown style index must show a number")
	}
}

func FuzzClassifyFormatCode(f *testing.F) {
	for _, seed := range []string{"yyyy-mm-dd", "[h]:mm", `"a"0`, "[", `\`, "_", "a/p", ";;;"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if kind := classifyFormatCode(code); kind > formatDateTime {
			t.Errorf("classifyFormatCode(%q) = %v", code, kind)
		}
	})
}
