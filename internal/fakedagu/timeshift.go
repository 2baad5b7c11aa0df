// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"regexp"
	"strings"
	"time"
)

// Timestamps appear in three forms inside recorded data: RFC 3339 values
// (with or without fractional seconds), and two compact forms inside log
// file paths ("20261130_093019Z" and "20261130.093019.586").
var (
	rfc3339Pattern    = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})`)
	pathStampPattern  = regexp.MustCompile(`\d{8}_\d{6}Z`)
	pathMillisPattern = regexp.MustCompile(`\d{8}\.\d{6}\.\d{3}`)
)

const (
	pathStampLayout  = "20060102_150405Z"
	pathMillisLayout = "20060102.150405.000"
)

// oldestShiftable guards placeholder values such as "0001-01-01T00:00:00Z",
// which mean "unset" and must never move.
var oldestShiftable = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// timeShift moves every timestamp found inside a string by a fixed amount.
type timeShift time.Duration

// apply returns s with every timestamp it contains moved by the shift.
func (d timeShift) apply(s string) string {
	if d == 0 || !strings.ContainsAny(s, "0123456789") {
		return s
	}
	s = rfc3339Pattern.ReplaceAllStringFunc(s, d.shiftRFC3339)
	s = pathStampPattern.ReplaceAllStringFunc(s, func(m string) string {
		return d.shiftLayout(m, pathStampLayout)
	})
	return pathMillisPattern.ReplaceAllStringFunc(s, func(m string) string {
		return d.shiftLayout(m, pathMillisLayout)
	})
}

func (d timeShift) shiftRFC3339(m string) string {
	t, err := time.Parse(time.RFC3339Nano, m)
	if err != nil || t.Before(oldestShiftable) {
		return m
	}
	return t.Add(time.Duration(d)).Format(rfc3339LayoutLike(m))
}

func (d timeShift) shiftLayout(m, layout string) string {
	t, err := time.Parse(layout, m)
	if err != nil || t.Before(oldestShiftable) {
		return m
	}
	return t.Add(time.Duration(d)).Format(layout)
}

// rfc3339LayoutLike returns a layout that prints the same number of
// fractional digits as the sample, so shifted values keep their precision.
func rfc3339LayoutLike(sample string) string {
	dot := strings.IndexByte(sample, '.')
	if dot < 0 {
		return time.RFC3339
	}
	digits := 0
	for _, c := range sample[dot+1:] {
		if c < '0' || c > '9' {
			break
		}
		digits++
	}
	return "2006-01-02T15:04:05." + strings.Repeat("0", digits) + "Z07:00"
}

// shiftTree returns a deep copy of a generic JSON value with every timestamp
// moved by d.
func shiftTree(v any, d timeShift) any {
	if d == 0 {
		return deepCopy(v)
	}
	return transformStrings(v, d.apply)
}

// parseRecordedTime parses a recorded RFC 3339 timestamp; "" and "-" (Dagu's
// "not recorded" markers) give the zero time.
func parseRecordedTime(s string) time.Time {
	if s == "" || s == "-" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// formatSeconds prints a timestamp the way Dagu prints run and node times:
// RFC 3339 with second precision.
func formatSeconds(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}
