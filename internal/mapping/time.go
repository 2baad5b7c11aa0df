// SPDX-License-Identifier: Apache-2.0

package mapping

import "time"

// maxTimeLen bounds an RFC 3339 timestamp with nanoseconds and an offset.
const maxTimeLen = len("2006-01-02T15:04:05.999999999-07:00")

// Time normalises one Dagu timestamp: an RFC 3339 value comes back in UTC
// with a Z, keeping the precision Dagu gave (whole seconds stay whole; a
// fraction keeps its digits, trailing zeros trimmed the way
// time.RFC3339Nano formats). Dagu's markers for "not recorded" ("" and "-")
// and anything that does not parse give "", which the models omit. A value
// whose UTC year falls outside 0000-9999 also gives "": RFC 3339 cannot
// express it.
//
// An input already in that form is returned as is, without allocating.
func Time(s string) string {
	if s == "" || s == "-" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return ""
	}
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return ""
	}
	var buf [maxTimeLen]byte
	out := t.AppendFormat(buf[:0], time.RFC3339Nano)
	if string(out) == s {
		return s
	}
	return string(out)
}

// timePtr is Time for an optional field.
func timePtr(s *string) string {
	if s == nil {
		return ""
	}
	return Time(*s)
}

// startKey parses a timestamp Time produced, for ordering; ok is false when
// the value was not recorded.
func startKey(s string) (t time.Time, ok bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}
