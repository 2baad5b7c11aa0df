// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"math"
	"strconv"
	"time"
)

// valueKind is the kind of a typed cell.
type valueKind uint8

const (
	valueEmpty valueKind = iota
	valueString
	valueNumber
	valueBool
	valueDate     // a date, ISO text like 2026-10-01
	valueDateTime // a date and time, ISO text like 2026-10-01T14:30:00
	valueTime     // a time of day, ISO text like 15:04:05
)

// temporal reports a date, date-time or time value.
func (k valueKind) temporal() bool {
	return k == valueDate || k == valueDateTime || k == valueTime
}

// cellValue is one typed cell. text holds the string, the ISO text of a
// temporal value or the error code, cut as textcut.go says; tail is the
// hash of the whole text when it was cut, else 0. num holds a number or a
// date serial.
type cellValue struct {
	kind valueKind
	text string
	num  float64
	b    bool
	tail uint64
}

// textValue types raw text as kind, cut to what the profile shows.
func textValue[T string | []byte](kind valueKind, raw T) cellValue {
	if len(raw) <= maxTextRunes {
		return cellValue{kind: kind, text: string(raw)}
	}
	text, tail := cutBytes([]byte(raw))
	return cellValue{kind: kind, text: text, tail: tail}
}

// maxSafeInteger is 2^53: integers up to it survive a JSON round trip.
const maxSafeInteger = 1 << 53

// integral reports a number that is a whole number within 2^53.
func (v cellValue) integral() bool {
	return v.kind == valueNumber && v.num == math.Trunc(v.num) && math.Abs(v.num) <= maxSafeInteger
}

// jsonValue returns the value as the profile writes it: nil for empty
// cells (error cells are empty), int64 for integral numbers, float64 for other numbers, bool
// for booleans and text for strings and temporal values.
func (v cellValue) jsonValue() any {
	switch v.kind {
	case valueNumber:
		if v.integral() {
			return int64(v.num)
		}
		return v.num
	case valueBool:
		return v.b
	case valueString, valueDate, valueDateTime, valueTime:
		return v.text
	}
	return nil
}

// display returns the value as Excel shows it in a General cell: numbers
// to Excel's 15 significant digits in plain notation, booleans as TRUE
// and FALSE; temporal values in ISO form.
func (v cellValue) display() string {
	switch v.kind {
	case valueNumber:
		return formatNumberText(excelDigits(v.num))
	case valueBool:
		if v.b {
			return "TRUE"
		}
		return "FALSE"
	}
	return v.text
}

// excelDigits rounds a number to the 15 significant digits Excel shows
// (a stored 0.30000000000000004 shows as 0.3).
func excelDigits(f float64) float64 {
	rounded, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if err != nil {
		return f
	}
	return rounded
}

// formatNumberText writes a number the way encoding/json does.
func formatNumberText(f float64) string {
	if f == 0 {
		return "0"
	}
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// cellTyper turns raw cells into typed values.
type cellTyper struct {
	strings  *sharedStrings
	formats  cellFormats
	date1904 bool
}

// holdsValue reports whether a kept raw cell holds a value: an error cell
// never does (it is null), and a shared string can still turn out empty
// (an empty or missing table entry).
func (t *cellTyper) holdsValue(row *rawRow, c *rawCell) bool {
	if c.typ != cellShared {
		return c.typ != cellError
	}
	idx, err := parseSmallInt(row.text(c))
	if err != nil {
		return false
	}
	s, _, ok := t.strings.get(idx)
	return ok && len(s) > 0
}

// missingShared reports a shared string cell whose index names no entry of
// the table (or is not an index): it reads as empty, with a warning.
func (t *cellTyper) missingShared(row *rawRow, c *rawCell) bool {
	if c.typ != cellShared {
		return false
	}
	idx, err := parseSmallInt(row.text(c))
	if err != nil {
		return true
	}
	_, _, ok := t.strings.get(idx)
	return !ok
}

// value types one raw cell by the profile's rules.
func (t *cellTyper) value(row *rawRow, c *rawCell) cellValue {
	raw := row.text(c)
	switch c.typ {
	case cellShared:
		return t.sharedValue(raw)
	case cellFormulaStr, cellInlineString:
		return textValue(valueString, raw)
	case cellBoolean:
		return booleanValue(raw)
	case cellError:
		return cellValue{}
	}
	if len(raw) > maxParsedBytes {
		// Far too long for a number or a date: text, without copying it
		// whole first.
		return textValue(valueString, raw)
	}
	if c.typ == cellISODate {
		return t.isoDateValue(string(raw))
	}
	return t.numberValue(string(raw), t.formats.kind(c.style))
}

// sharedValue types a shared string cell: empty when its index is bad or
// its string empty.
func (t *cellTyper) sharedValue(raw []byte) cellValue {
	idx, err := parseSmallInt(raw)
	if err != nil {
		return cellValue{}
	}
	s, tail, ok := t.strings.get(idx)
	if !ok || len(s) == 0 {
		return cellValue{}
	}
	return cellValue{kind: valueString, text: string(s), tail: tail}
}

// maxParsedBytes is the longest raw text parsed as a number or an ISO
// date; Excel writes neither longer than about 30 characters.
const maxParsedBytes = 1024

func booleanValue(raw []byte) cellValue {
	switch string(raw) {
	case "1", "true":
		return cellValue{kind: valueBool, b: true}
	case "0", "false":
		return cellValue{kind: valueBool}
	}
	return textValue(valueString, raw)
}

// numberValue types a numeric cell under its number format. A value that
// carries more than its format shows (a time under a date-only format, a
// date under a time-only format) becomes a full date-time so nothing is
// lost.
func (t *cellTyper) numberValue(raw string, format formatKind) cellValue {
	num, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(num, 0) || math.IsNaN(num) {
		return textValue(valueString, raw)
	}
	if format == formatNumber {
		return cellValue{kind: valueNumber, num: num}
	}
	tm, seconds, ok := serialTime(num, t.date1904)
	if !ok {
		return cellValue{kind: valueNumber, num: num}
	}
	hasDay, hasTime := seconds >= secondsPerDay, seconds%secondsPerDay != 0
	switch {
	case format == formatDateTime,
		format == formatDate && hasTime,
		format == formatTime && hasDay:
		return cellValue{kind: valueDateTime, text: tm.Format(isoDateTime), num: num}
	case format == formatTime:
		return cellValue{kind: valueTime, text: tm.Format(isoTime), num: num}
	}
	return cellValue{kind: valueDate, text: tm.Format(isoDate), num: num}
}

const (
	isoDate       = "2006-01-02"
	isoDateTime   = "2006-01-02T15:04:05"
	isoTime       = "15:04:05"
	secondsPerDay = 86400
	// maxDateSerial is 9999-12-31, the last day Excel can show.
	maxDateSerial = 2958465
)

var (
	epoch1900 = time.Date(1899, time.December, 30, 0, 0, 0, 0, time.UTC)
	epoch1904 = time.Date(1904, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// serialTime converts a date serial of either date system to a time,
// rounded to the second, plus the serial's rounded seconds. Serials before
// 1 March 1900 are shifted a day because the 1900 system counts a
// 29 February 1900 that never existed.
func serialTime(serial float64, date1904 bool) (time.Time, int64, bool) {
	if serial < 0 || serial >= maxDateSerial+1 {
		return time.Time{}, 0, false
	}
	seconds := int64(math.Round(serial * secondsPerDay))
	epoch := epoch1900
	switch {
	case date1904:
		epoch = epoch1904
	case serial < 61:
		epoch = epoch.AddDate(0, 0, 1)
	}
	// Whole days go through AddDate: nanosecond durations overflow past
	// 292 years.
	days, rest := seconds/secondsPerDay, seconds%secondsPerDay
	return epoch.AddDate(0, 0, int(days)).Add(time.Duration(rest) * time.Second), seconds, true
}

// timeSerial is the inverse of serialTime, used to order ISO-dated cells
// among serial-dated ones.
func timeSerial(tm time.Time, date1904 bool) float64 {
	if date1904 {
		return float64(tm.Unix()-epoch1904.Unix()) / secondsPerDay
	}
	serial := float64(tm.Unix()-epoch1900.Unix()) / secondsPerDay
	if serial < 61 {
		serial--
	}
	return serial
}

var isoLayouts = []struct {
	layout string
	kind   valueKind
}{
	{time.RFC3339Nano, valueDateTime},
	{"2006-01-02T15:04:05.999999999", valueDateTime},
	{isoDate, valueDate},
	{isoTime, valueTime},
}

// isoDateValue types a cell stored as ISO 8601 text (t="d").
func (t *cellTyper) isoDateValue(raw string) cellValue {
	for _, l := range isoLayouts {
		tm, err := time.Parse(l.layout, raw)
		if err != nil {
			continue
		}
		switch l.kind {
		case valueDate:
			return cellValue{kind: valueDate, text: tm.Format(isoDate), num: timeSerial(tm, t.date1904)}
		case valueTime:
			return cellValue{kind: valueTime, text: tm.Format(isoTime), num: float64(tm.Hour()*3600+tm.Minute()*60+tm.Second()) / secondsPerDay}
		}
		tm = tm.UTC().Truncate(time.Second)
		return cellValue{kind: valueDateTime, text: tm.Format(isoDateTime), num: timeSerial(tm, t.date1904)}
	}
	return textValue(valueString, raw)
}
