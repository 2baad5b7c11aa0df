// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// paramRule is one row of the contract's query value table.
type paramRule struct {
	repeatable bool
	// valid reports whether a trimmed, non-empty value is acceptable.
	valid func(string) bool
	// want completes the sentence "The value of X must be ...".
	want string
}

func intRange(lo, hi int) paramRule {
	return paramRule{
		valid: func(v string) bool {
			n, err := strconv.Atoi(v)
			return err == nil && n >= lo && n <= hi
		},
		want: fmt.Sprintf("an integer from %d through %d", lo, hi),
	}
}

func intAtLeast(lo int) paramRule {
	return paramRule{
		valid: func(v string) bool {
			n, err := strconv.Atoi(v)
			return err == nil && n >= lo
		},
		want: fmt.Sprintf("an integer greater than or equal to %d", lo),
	}
}

func oneOf(values ...string) paramRule {
	return paramRule{
		valid: func(v string) bool { return contains(values, v) },
		want:  "one of " + strings.Join(values, ", "),
	}
}

var (
	nonEmpty  = paramRule{valid: func(string) bool { return true }, want: "a non-empty string"}
	labelList = paramRule{valid: validLabelList, want: "a comma-separated list of non-empty labels"}
	unixTime  = paramRule{valid: validUnixSeconds, want: "a Unix timestamp in seconds"}
	runStatus = paramRule{repeatable: true, valid: intRange(0, model.MaxRunStatus).valid,
		want: fmt.Sprintf("an integer from 0 through %d (repeat status for several)", model.MaxRunStatus)}
	pagePref = paramRule{valid: validWikiPrefix, want: "a valid Wiki page path prefix"}
)

// The contract's Query handling table, one row per target that takes a
// query; each row hangs off its target's targetSpec.
var (
	dagsQuery = map[string]paramRule{
		"page": intAtLeast(1), "perPage": intRange(1, maxListPerPage), "name": nonEmpty,
		"labels": labelList, "sort": oneOf("name", "nextRun"), "order": oneOf("asc", "desc"),
	}
	runsQuery = map[string]paramRule{
		"name": nonEmpty, "dagRunId": nonEmpty, "status": runStatus,
		"fromDate": unixTime, "toDate": unixTime, "limit": intRange(1, maxRunsLimit),
		"cursor": nonEmpty, "labels": labelList,
	}
	wikiQuery = map[string]paramRule{
		"page": intAtLeast(1), "perPage": intRange(1, maxListPerPage), "flat": oneOf("true", "false"),
		"sort": oneOf("name", "type", "mtime"), "order": oneOf("asc", "desc"), "prefix": pagePref,
	}
	runLogsQuery = map[string]paramRule{"tail": intRange(1, maxLogLines)}
	stepLogQuery = map[string]paramRule{
		"tail": intRange(1, maxLogLines), "head": intRange(1, maxLogLines), "offset": intAtLeast(1),
		"limit": intRange(1, maxLogLines), "stream": oneOf("stdout", "stderr"),
	}
	foreachItemsQuery = map[string]paramRule{
		"parent": nonEmpty, "status": oneOf("not_started", "running", "succeeded", "failed", "aborted"),
		"page": intAtLeast(1), "perPage": intRange(1, maxForeachPerPage),
	}
)

// Bounds of the query table that the tool description repeats.
const (
	maxListPerPage    = 200
	maxRunsLimit      = 500
	maxLogLines       = 10000
	maxForeachPerPage = 500
)

// queryProblem explains why a query string was refused; the caller turns it
// into the mode's error code.
type queryProblem struct {
	message   string
	parameter string
}

// parseQuery validates a raw query string for a target and returns its
// trimmed values. An empty query yields nil values.
func parseQuery(spec *targetSpec, raw string) (url.Values, *queryProblem) {
	if raw == "" {
		return nil, nil
	}
	target, rules := spec.name, spec.query
	if rules == nil {
		return nil, &queryProblem{message: fmt.Sprintf("Target %s does not accept query parameters.", target)}
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return nil, &queryProblem{message: "Query contains malformed URL encoding."}
	}
	for _, key := range sortedKeys(values) {
		if p := checkParam(target, rules, key, values[key]); p != nil {
			return nil, p
		}
	}
	if spec.checkQuery != nil {
		if p := spec.checkQuery(values); p != nil {
			return nil, p
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	return values, nil
}

func checkParam(target string, rules map[string]paramRule, key string, vals []string) *queryProblem {
	rule, ok := rules[key]
	if !ok {
		return &queryProblem{message: fmt.Sprintf("Unsupported query parameter %q for target %s.", key, target), parameter: key}
	}
	if len(vals) > 1 && !rule.repeatable {
		return &queryProblem{message: fmt.Sprintf("Query parameter %s must not be repeated.", key), parameter: key}
	}
	for i, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			return &queryProblem{message: fmt.Sprintf("Query parameter %s must not be empty.", key), parameter: key}
		}
		if !rule.valid(v) {
			return &queryProblem{message: fmt.Sprintf("The value of query parameter %s must be %s.", key, rule.want), parameter: key}
		}
		vals[i] = v
	}
	return nil
}

// checkLogWindow applies the step_log rules: at most one of tail, head and
// offset; limit only with offset or alone.
func checkLogWindow(values url.Values) *queryProblem {
	var set []string
	for _, k := range []string{"tail", "head", "offset"} {
		if values.Has(k) {
			set = append(set, k)
		}
	}
	if len(set) > 1 {
		return &queryProblem{message: "Use at most one of tail, head and offset.", parameter: set[1]}
	}
	if values.Has("limit") && len(set) == 1 && set[0] != "offset" {
		return &queryProblem{message: "limit can be combined only with offset.", parameter: "limit"}
	}
	return nil
}

func validLabelList(v string) bool {
	for _, label := range strings.Split(v, ",") {
		if strings.TrimSpace(label) == "" {
			return false
		}
	}
	return true
}

func validUnixSeconds(v string) bool {
	n, err := strconv.ParseInt(v, 10, 64)
	// Year 9999 bounds the value so the timestamp stays representable.
	return err == nil && n >= 0 && n <= 253402300799
}

// splitLabels turns a validated comma list into trimmed labels.
func splitLabels(v string) []string {
	parts := strings.Split(v, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// queryInt reads a validated integer parameter; absent gives 0.
func queryInt(values url.Values, key string) int {
	n, _ := strconv.Atoi(values.Get(key))
	return n
}
