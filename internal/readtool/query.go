// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// param is one row of the contract's query value table for a target whose
// query becomes a Q: store parses a trimmed, non-empty value and keeps it
// in the query struct, or reports false when the value is refused.
type param[Q any] struct {
	key        string
	repeatable bool
	// want completes the sentence "The value of X must be ...".
	want  string
	store func(q *Q, v string) bool
	// doc is the parameter's "Accepted values" cell in read-tool.md's
	// Query parameters table (generated: go generate ./internal/readtool).
	doc string
}

// documented gives a parameter its accepted-values text for read-tool.md.
func (p param[Q]) documented(doc string) param[Q] {
	p.doc = doc
	return p
}

// queryRules is a target's row of the contract's Query handling table: its
// parameters and the rules across them. A query is validated once, into
// the typed struct the handler receives.
type queryRules[Q any] struct {
	params []param[Q]
	// check applies rules across the parameters (both modes).
	check func(q *Q) *queryProblem
	// reconcile checks target-mode fields against the parsed query and may
	// complete it; it runs in both modes.
	reconcile func(c *call, q *Q) *Error
}

func intRange[Q any](key string, lo, hi int, field func(*Q) *int) param[Q] {
	return param[Q]{key: key, want: fmt.Sprintf("an integer from %d through %d", lo, hi),
		store: storeInt(lo, hi, field)}
}

func intAtLeast[Q any](key string, lo int, field func(*Q) *int) param[Q] {
	return param[Q]{key: key, want: fmt.Sprintf("an integer greater than or equal to %d", lo),
		store: storeInt(lo, int(^uint(0)>>1), field)}
}

func storeInt[Q any](lo, hi int, field func(*Q) *int) func(*Q, string) bool {
	return func(q *Q, v string) bool {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return false
		}
		*field(q) = n
		return true
	}
}

func text[Q any](key string, field func(*Q) *string) param[Q] {
	return param[Q]{key: key, want: "a non-empty string", store: func(q *Q, v string) bool {
		*field(q) = v
		return true
	}}
}

func oneOf[Q any](key string, field func(*Q) *string, values ...string) param[Q] {
	return param[Q]{key: key, want: "one of " + strings.Join(values, ", "), store: func(q *Q, v string) bool {
		if !contains(values, v) {
			return false
		}
		*field(q) = v
		return true
	}}
}

func flag[Q any](key string, field func(*Q) *bool) param[Q] {
	return param[Q]{key: key, want: "one of true, false", store: func(q *Q, v string) bool {
		if v != "true" && v != "false" {
			return false
		}
		*field(q) = v == "true"
		return true
	}}
}

func labels[Q any](key string, field func(*Q) *[]string) param[Q] {
	return param[Q]{key: key, want: "a comma-separated list of non-empty labels", store: func(q *Q, v string) bool {
		parts := strings.Split(v, ",")
		for i := range parts {
			if parts[i] = strings.TrimSpace(parts[i]); parts[i] == "" {
				return false
			}
		}
		*field(q) = parts
		return true
	}}
}

// maxUnixSeconds is the last second of year 9999, so a timestamp stays
// representable.
const maxUnixSeconds = 253402300799

func unixTime[Q any](key string, field func(*Q) **int64) param[Q] {
	return param[Q]{key: key, want: "a Unix timestamp in seconds", store: func(q *Q, v string) bool {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > maxUnixSeconds {
			return false
		}
		*field(q) = &n
		return true
	}}
}

func runStatus[Q any](key string, field func(*Q) *[]int) param[Q] {
	return param[Q]{key: key, repeatable: true,
		want: fmt.Sprintf("an integer from 0 through %d (repeat status for several)", model.MaxRunStatus),
		store: func(q *Q, v string) bool {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > model.MaxRunStatus {
				return false
			}
			*field(q) = append(*field(q), n)
			return true
		}}
}

func pagePrefix[Q any](key string, field func(*Q) *string) param[Q] {
	return param[Q]{key: key, want: "a valid Wiki page path prefix", store: func(q *Q, v string) bool {
		if !validWikiPrefix(v) {
			return false
		}
		*field(q) = v
		return true
	}}
}

// Bounds of the query table that the tool description repeats.
const (
	maxListPerPage    = 200
	maxRunsLimit      = 500
	maxLogLines       = 10000
	maxForeachPerPage = 500
)

// The contract's Query handling table, one row per target that takes a
// query, each parsing into the model's query struct its port method takes.
// Parameters are listed in the order the resource templates name them.
var (
	dagsQuery = &queryRules[model.DAGListQuery]{params: []param[model.DAGListQuery]{
		intAtLeast("page", 1, func(q *model.DAGListQuery) *int { return &q.Page }).
			documented("integer, 1 or more"),
		intRange("perPage", 1, maxListPerPage, func(q *model.DAGListQuery) *int { return &q.PerPage }).
			documented(fmt.Sprintf("integer 1 to %d (Dagu's default applies when omitted)", maxListPerPage)),
		text("name", func(q *model.DAGListQuery) *string { return &q.Name }).
			documented("text; DAGs whose name contains it"),
		labels("labels", func(q *model.DAGListQuery) *[]string { return &q.Labels }).
			documented("comma-separated labels; a DAG must carry all of them"),
		oneOf("sort", func(q *model.DAGListQuery) *string { return &q.Sort }, "name", "nextRun").
			documented("`name` or `nextRun`"),
		oneOf("order", func(q *model.DAGListQuery) *string { return &q.Order }, "asc", "desc").
			documented("`asc` or `desc`"),
	}}
	runsQuery = &queryRules[model.RunListQuery]{params: []param[model.RunListQuery]{
		text("name", func(q *model.RunListQuery) *string { return &q.Name }).
			documented("text; runs of DAGs whose name contains it"),
		text("dagRunId", func(q *model.RunListQuery) *string { return &q.DAGRunID }).
			documented("text; runs whose ID contains it. Or `latest` together with `name` (then the DAG's exact name) for that DAG's newest run"),
		runStatus("status", func(q *model.RunListQuery) *[]int { return &q.Status }).
			documented(fmt.Sprintf("run status number 0 to %d; repeat it for several (`status=2&status=3`)", model.MaxRunStatus)),
		unixTime("fromDate", func(q *model.RunListQuery) **int64 { return &q.FromDate }).
			documented("Unix time in seconds; runs from then on"),
		unixTime("toDate", func(q *model.RunListQuery) **int64 { return &q.ToDate }).
			documented("Unix time in seconds; runs up to then"),
		intRange("limit", 1, maxRunsLimit, func(q *model.RunListQuery) *int { return &q.Limit }).
			documented(fmt.Sprintf("integer 1 to %d", maxRunsLimit)),
		text("cursor", func(q *model.RunListQuery) *string { return &q.Cursor }).
			documented("the `nextCursor` of the previous page"),
		labels("labels", func(q *model.RunListQuery) *[]string { return &q.Labels }).
			documented("comma-separated labels; a run must carry all of them"),
	}}
	wikiQuery = &queryRules[model.WikiListQuery]{params: []param[model.WikiListQuery]{
		intAtLeast("page", 1, func(q *model.WikiListQuery) *int { return &q.Page }).
			documented("integer, 1 or more"),
		intRange("perPage", 1, maxListPerPage, func(q *model.WikiListQuery) *int { return &q.PerPage }).
			documented(fmt.Sprintf("integer 1 to %d", maxListPerPage)),
		flag("flat", func(q *model.WikiListQuery) *bool { return &q.Flat }).
			documented("`true` (list of pages) or `false` (tree, the default)"),
		oneOf("sort", func(q *model.WikiListQuery) *string { return &q.Sort }, "name", "type", "mtime").
			documented("`name`, `type` or `mtime`"),
		oneOf("order", func(q *model.WikiListQuery) *string { return &q.Order }, "asc", "desc").
			documented("`asc` or `desc`"),
		pagePrefix("prefix", func(q *model.WikiListQuery) *string { return &q.Prefix }).
			documented("a page path prefix (if you also pass the `prefix` field, the two must be equal)"),
	}, reconcile: mergeWikiPrefix}
	runLogsQuery = &queryRules[model.LogQuery]{params: []param[model.LogQuery]{
		intRange("tail", 1, maxLogLines, func(q *model.LogQuery) *int { return &q.Tail }).
			documented(fmt.Sprintf("integer 1 to %d: the last N scheduler log lines", maxLogLines)),
	}}
	stepLogQuery = &queryRules[model.LogQuery]{params: []param[model.LogQuery]{
		intRange("tail", 1, maxLogLines, func(q *model.LogQuery) *int { return &q.Tail }).
			documented(fmt.Sprintf("integer 1 to %d: the last N lines", maxLogLines)),
		intRange("head", 1, maxLogLines, func(q *model.LogQuery) *int { return &q.Head }).
			documented(fmt.Sprintf("integer 1 to %d: the first N lines", maxLogLines)),
		intAtLeast("offset", 1, func(q *model.LogQuery) *int { return &q.Offset }).
			documented("integer, 1 or more: start at this line (1 is the first)"),
		intRange("limit", 1, maxLogLines, func(q *model.LogQuery) *int { return &q.Limit }).
			documented(fmt.Sprintf("integer 1 to %d: how many lines from `offset`, or from the start when alone", maxLogLines)),
		oneOf("stream", func(q *model.LogQuery) *string { return &q.Stream }, "stdout", "stderr").
			documented("`stdout` or `stderr`; omitted means both"),
	}, check: checkLogWindow}
	foreachItemsQuery = &queryRules[model.ForeachQuery]{params: []param[model.ForeachQuery]{
		oneOf("status", func(q *model.ForeachQuery) *string { return &q.Status },
			"not_started", "running", "succeeded", "failed", "aborted").
			documented("`not_started`, `running`, `succeeded`, `failed` or `aborted`"),
		intAtLeast("page", 1, func(q *model.ForeachQuery) *int { return &q.Page }).
			documented("integer, 1 or more"),
		intRange("perPage", 1, maxForeachPerPage, func(q *model.ForeachQuery) *int { return &q.PerPage }).
			documented(fmt.Sprintf("integer 1 to %d", maxForeachPerPage)),
		text("parent", func(q *model.ForeachQuery) *string { return &q.Parent }).
			documented("the `foreachParent` of a body step, to list a nested foreach's items"),
	}}
)

// queryProblem explains why a query string was refused; the caller turns it
// into the mode's error code.
type queryProblem struct {
	message   string
	parameter string
	// didYouMean are the target's parameters close to an unsupported one.
	didYouMean []string
}

// docs lists the parameters' accepted-values texts in table order.
func (r *queryRules[Q]) docs() []string {
	out := make([]string, len(r.params))
	for i, p := range r.params {
		out[i] = p.doc
	}
	return out
}

// keys lists the parameter names in table order.
func (r *queryRules[Q]) keys() []string {
	out := make([]string, len(r.params))
	for i, p := range r.params {
		out[i] = p.key
	}
	return out
}

// parse validates a raw query string for a target into its query struct;
// an empty query gives the zero struct.
func (r *queryRules[Q]) parse(target, raw string) (Q, *queryProblem) {
	var q Q
	if raw == "" {
		return q, nil
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return q, &queryProblem{message: "Query contains malformed URL encoding."}
	}
	for _, key := range sortedKeys(values) {
		if p := r.store(&q, target, key, values[key]); p != nil {
			return q, p
		}
	}
	if r.check != nil {
		if p := r.check(&q); p != nil {
			return q, p
		}
	}
	return q, nil
}

// store validates one parameter's values in order and keeps them.
func (r *queryRules[Q]) store(q *Q, target, key string, vals []string) *queryProblem {
	rule := r.param(key)
	if rule == nil {
		return r.unsupported(target, key)
	}
	if len(vals) > 1 && !rule.repeatable {
		return &queryProblem{message: fmt.Sprintf("Query parameter %s must not be repeated.", key), parameter: key}
	}
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			return &queryProblem{message: fmt.Sprintf("Query parameter %s must not be empty.", key), parameter: key}
		}
		if !rule.store(q, v) {
			return &queryProblem{message: fmt.Sprintf("The value of query parameter %s must be %s.", key, rule.want), parameter: key}
		}
	}
	return nil
}

// unsupported explains a parameter the target does not take: the close
// ones as a did-you-mean, or else every parameter it takes.
func (r *queryRules[Q]) unsupported(target, key string) *queryProblem {
	p := &queryProblem{parameter: key, didYouMean: suggest(key, r.keys(), maxSuggestions)}
	p.message = fmt.Sprintf("Unsupported query parameter %q for target %s. ", key, target)
	if len(p.didYouMean) > 0 {
		p.message += "Did you mean " + quoteList(p.didYouMean) + "?"
	} else {
		p.message += "It takes " + strings.Join(r.keys(), ", ") + "."
	}
	return p
}

func (r *queryRules[Q]) param(key string) *param[Q] {
	for i := range r.params {
		if r.params[i].key == key {
			return &r.params[i]
		}
	}
	return nil
}

// checkLogWindow applies the step_log rules: at most one of tail, head and
// offset; limit only with offset or alone. Accepted values are at least 1,
// so a zero means the parameter is absent.
func checkLogWindow(q *model.LogQuery) *queryProblem {
	var set []string
	for _, w := range []struct {
		key string
		n   int
	}{{"tail", q.Tail}, {"head", q.Head}, {"offset", q.Offset}} {
		if w.n != 0 {
			set = append(set, w.key)
		}
	}
	if len(set) > 1 {
		return &queryProblem{message: "Use at most one of tail, head and offset.", parameter: set[1]}
	}
	if q.Limit != 0 && len(set) == 1 && set[0] != "offset" {
		return &queryProblem{message: "limit can be combined only with offset.", parameter: "limit"}
	}
	return nil
}

// queryError turns a refused query into the error of the request's mode.
func queryError(p *queryProblem, c *call) *Error {
	var e *Error
	if c.mode == uriMode {
		e = newError(CodeInvalidResourceURI, p.message)
	} else {
		e = newError(CodeInvalidToolInput, p.message).withField(fQuery)
	}
	if p.parameter != "" {
		e = e.withDetails(map[string]any{"parameter": p.parameter})
	}
	if len(p.didYouMean) > 0 {
		e = e.withDetail("didYouMean", p.didYouMean)
	}
	return e
}
