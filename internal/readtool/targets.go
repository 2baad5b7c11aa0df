// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"net/url"
)

// Read target names.
const (
	tReferences   = "references"
	tReference    = "reference"
	tDAGs         = "dags"
	tDAG          = "dag"
	tDAGSpec      = "dag_spec"
	tDAGSearch    = "dag_search"
	tWiki         = "wiki"
	tWikiPage     = "wiki_page"
	tWikiSearch   = "wiki_search"
	tWorkbook     = "workbook"
	tRuns         = "runs"
	tRun          = "run"
	tRunLogs      = "run_logs"
	tStepLog      = "step_log"
	tForeachItems = "foreach_items"
	tForeachItem  = "foreach_item"
)

// targetAliases maps deprecated target names to the targets they stand for.
// They are accepted but not advertised.
var targetAliases = map[string]string{
	"docs":       tWiki,
	"doc":        tWikiPage,
	"doc_search": tWikiSearch,
}

// handler reads one target for a validated call.
type handler func(t *Tool, ctx context.Context, c *call) (any, error)

// targetSpec is one row of the contract's Target contracts table: every
// rule the tool applies to one target lives here, and the rest of the
// package reads the row instead of switching on the target's name.
type targetSpec struct {
	name     string
	required []string
	optional []string
	// defaults fills absent optional fields before the required check.
	defaults map[string]string
	// validate applies the target's own value rules (pairings, paths)
	// after the generic per-field checks.
	validate func(*call) *Error
	// query is the target's row of the Query handling table; nil means the
	// target accepts no query parameters.
	query map[string]paramRule
	// checkQuery applies rules across the query's parameters (both modes).
	checkQuery func(url.Values) *queryProblem
	// reconcile checks target-mode fields against the parsed query.
	reconcile func(*call) *Error
	// noQuery is the URI-mode message for a URI of this target that
	// carries a query the target does not take.
	noQuery string
	// uri builds the canonical output URI; nil for targets without one.
	uri func(*call) string
	// uriInTargetMode is false for collections whose URI the contract
	// gives only in URI mode.
	uriInTargetMode bool
	// singular is true when the target names one resource whose URI is
	// resolved before lookup; lookup errors then carry that URI.
	singular bool
	// link names the result's resource link (name, MIME type, title).
	link func(*call) linkSpec
	// dataInText adds the data as indented JSON to the success text.
	dataInText bool
	// echo lists the input fields the envelope echoes at the top level.
	echo []string
	// notFound names the input blamed for a not-found answer when the
	// upstream did not say which one.
	notFound func(*call) string
	// read performs the read.
	read handler
}

// allows reports whether the target accepts the field (target itself is
// always allowed).
func (s *targetSpec) allows(field string) bool {
	if field == fTarget {
		return true
	}
	return contains(s.required, field) || contains(s.optional, field)
}

// hasURI reports whether a read in the given mode has an output URI.
func (s *targetSpec) hasURI(m mode) bool {
	return s.uri != nil && (m == uriMode || s.uriInTargetMode)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// targetOrder lists the supported read targets in the order the tool
// description advertises them.
var targetOrder = func() []string {
	names := make([]string, len(targetTable))
	for i := range targetTable {
		names[i] = targetTable[i].name
	}
	return names
}()

// targets indexes targetTable by name.
var targets = func() map[string]*targetSpec {
	m := make(map[string]*targetSpec, len(targetTable))
	for i := range targetTable {
		m[targetTable[i].name] = &targetTable[i]
	}
	return m
}()

// lookupTarget finds a target's row, following deprecated aliases.
func lookupTarget(name string) (*targetSpec, bool) {
	if canonical, ok := targetAliases[name]; ok {
		name = canonical
	}
	spec, ok := targets[name]
	return spec, ok
}
