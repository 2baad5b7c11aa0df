// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"strconv"
	"strings"
	"time"
)

// Releases whose DAG list carries no nextRun (2.0, 1.29) sort by the next
// time a DAG's cron schedule fires. cronNext evaluates the five standard
// fields with "*", "*/n", numbers and comma lists, minute by minute over
// the next eight days; anything else never fires.

const cronHorizon = 8 * 24 * time.Hour

// cronNext returns the earliest time after now that any expression fires,
// or the zero time.
func cronNext(exprs []string, now time.Time) time.Time {
	var best time.Time
	for _, e := range exprs {
		if t := cronNextOne(e, now); !t.IsZero() && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	return best
}

func cronNextOne(expr string, now time.Time) time.Time {
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return time.Time{}
	}
	t := now.UTC().Truncate(time.Minute).Add(time.Minute)
	for end := t.Add(cronHorizon); t.Before(end); t = t.Add(time.Minute) {
		values := []int{t.Minute(), t.Hour(), t.Day(), int(t.Month()), int(t.Weekday())}
		if cronMatchesAll(fields, values) {
			return t
		}
	}
	return time.Time{}
}

func cronMatchesAll(fields []string, values []int) bool {
	for i, f := range fields {
		if !cronFieldMatches(f, values[i]) {
			return false
		}
	}
	return true
}

// cronFieldMatches reports whether one field admits a value.
func cronFieldMatches(field string, v int) bool {
	for _, part := range strings.Split(field, ",") {
		switch {
		case part == "*":
			return true
		case strings.HasPrefix(part, "*/"):
			if n, err := strconv.Atoi(part[2:]); err == nil && n > 0 && v%n == 0 {
				return true
			}
		default:
			if n, err := strconv.Atoi(part); err == nil && n == v {
				return true
			}
		}
	}
	return false
}
