// SPDX-License-Identifier: Apache-2.0

package workbook

import "strings"

// formatKind says how a number format shows a number.
type formatKind uint8

const (
	formatNumber   formatKind = iota // any non-date format
	formatDate                       // a date without a time of day
	formatTime                       // a time of day without a date
	formatDateTime                   // a date and a time of day
)

// builtinFormatKinds classifies the built-in number format ids that show
// dates or times; every other built-in id shows a number. Ids 27-36 and
// 50-58 depend on the reader's locale; where locales disagree between a
// date and a time the id is read as a date-time, which loses nothing.
var builtinFormatKinds = map[int]formatKind{
	14: formatDate, 15: formatDate, 16: formatDate, 17: formatDate,
	18: formatTime, 19: formatTime, 20: formatTime, 21: formatTime,
	22: formatDateTime,
	45: formatTime, 47: formatTime, // 46 is an elapsed duration: a number
	27: formatDate, 28: formatDate, 29: formatDate, 30: formatDate, 31: formatDate,
	32: formatTime, 33: formatTime,
	34: formatDateTime, 35: formatDateTime, 36: formatDate,
	50: formatDate, 51: formatDate, 52: formatDateTime, 53: formatDateTime,
	54: formatDate, 55: formatDateTime, 56: formatDateTime, 57: formatDate, 58: formatDate,
}

// classifyFormatCode reads a custom number format code. Only the first
// section counts (the one for positive numbers). Quoted text, escaped and
// padding characters and bracketed modifiers are skipped; a bracketed
// elapsed-time token such as [h] makes the format a duration, shown as a
// number.
func classifyFormatCode(code string) formatKind {
	var hasY, hasD, hasM, hasH, hasS, hasAMPM bool
	lower := strings.ToLower(code)
	for i := 0; i < len(lower); i++ {
		switch c := lower[i]; c {
		case ';':
			i = len(lower)
		case '"':
			if end := strings.IndexByte(lower[i+1:], '"'); end >= 0 {
				i += end + 1
			} else {
				i = len(lower)
			}
		case '\\', '_', '*':
			i++
		case '[':
			end := strings.IndexByte(lower[i+1:], ']')
			if end < 0 {
				i = len(lower)
				continue
			}
			if isElapsedToken(lower[i+1 : i+1+end]) {
				return formatNumber
			}
			i += end + 1
		case 'y':
			hasY = true
		case 'd':
			hasD = true
		case 'm':
			hasM = true
		case 'h':
			hasH = true
		case 's':
			hasS = true
		case 'a':
			if strings.HasPrefix(lower[i:], "am/pm") || strings.HasPrefix(lower[i:], "a/p") {
				hasAMPM = true
			}
		}
	}
	hasTime := hasH || hasS || hasAMPM
	hasDate := hasY || hasD || (hasM && !hasTime)
	switch {
	case hasDate && hasTime:
		return formatDateTime
	case hasDate:
		return formatDate
	case hasTime:
		return formatTime
	}
	return formatNumber
}

func isElapsedToken(token string) bool {
	if token == "" {
		return false
	}
	first := token[0]
	if first != 'h' && first != 'm' && first != 's' {
		return false
	}
	return strings.Count(token, string(first)) == len(token)
}
