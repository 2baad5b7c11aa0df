// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"slices"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// Read target names the package's code refers to. A row may name its
// target with a string of its own: nothing else lists the targets.
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

// targetSpec is one row of the contract's Target contracts table: every
// rule the tool applies to one target lives here, and the rest of the
// package (parsing, URIs, resources, links, the description, the schema)
// reads the rows instead of switching on the target's name.
type targetSpec struct {
	name     string
	required []string
	optional []string
	// defaults fills absent optional fields before the required check.
	defaults map[string]string
	// validate applies the target's own value rules (pairings, paths)
	// after the generic per-field checks.
	validate func(*call) *Error
	// reader holds the target's query rules and its handler.
	reader reader
	// lifetime is which of the gateway's caches keeps the target's
	// answers: what a resources/read answer's cache hints say (see
	// cacheHints).
	lifetime lifetime
	// patterns are the target's dagu:// shapes, parsed and built alike;
	// nil for targets without a URI.
	patterns []uriPattern
	// checkSegments applies the target's rules to the values a URI's path
	// gives, before any other check of a URI-mode request.
	checkSegments func(values map[string]string) *Error
	// noQuery is the URI-mode message for a URI of this target that
	// carries a query the target does not take.
	noQuery string
	// uriInTargetMode is false for collections whose URI the contract
	// gives only in URI mode.
	uriInTargetMode bool
	// singular is true when the target names one resource whose URI is
	// resolved before lookup; lookup errors then carry that URI.
	singular bool
	// dataInText adds the data as indented JSON to the success text.
	dataInText bool
	// echo lists the input fields the envelope echoes at the top level.
	echo []string
	// notFound names the input blamed for a not-found answer when the
	// upstream did not say which one.
	notFound func(*call) string
	// describe is the target's entry in the tool description's target
	// list ({{.Name}} placeholders are filled from descriptionArgs);
	// sharesLine puts it on the previous target's line after "; ".
	describe   string
	sharesLine bool
	// uris is the row's entry in the description's "URIs:" line; "" means
	// each pattern as dagu://path (sub-run forms are said once for all),
	// describedElsewhere that another row's entry names its patterns.
	uris string
	// mentions are the description's other words for the target, dropped
	// with it when the operator switches it off.
	mentions []string
	// example is a read of the target (its arguments) against the
	// recorded fake Dagu; its answer is the golden exampleGolden names
	// (default: the target, "_" as "-"), written by -update. "" only for
	// a target that reads no Dagu.
	example, exampleGolden string
	// support names the upstream support rule saying how a detected Dagu
	// serves the target (doctor, /readyz): "served" or "local" for a
	// target every release serves alike.
	support string
	// summary says what the target reads, in the README's target table
	// (generated: go generate ./internal/readtool).
	summary string
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
	return len(s.patterns) > 0 && (m == uriMode || s.uriInTargetMode)
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

// TargetRules pairs each target, in the advertised order, with the
// upstream support rule its row names.
func TargetRules() []model.TargetRule { return targetRules(targetTable) }

func targetRules(rows []targetSpec) []model.TargetRule {
	rules := make([]model.TargetRule, len(rows))
	for i := range rows {
		rules[i] = model.TargetRule{Target: rows[i].name, Support: rows[i].support}
	}
	return rules
}

// TargetNames lists the dagu_read targets in the order the tool advertises
// them (the input schema's target enum); --disable-target may name them.
func TargetNames() []string { return slices.Clone(targetOrder) }
