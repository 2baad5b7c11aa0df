package readtool

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

// targetSpec is one row of the contract's Target contracts table.
type targetSpec struct {
	required []string
	optional []string
	// singular is true when the target names one resource whose URI is
	// resolved before lookup; lookup errors then carry that URI.
	singular bool
}

// targets lists the supported read targets in the order the tool
// description advertises them.
var targetOrder = []string{
	tReferences, tReference, tDAGs, tDAG, tDAGSpec, tDAGSearch,
	tWiki, tWikiPage, tWikiSearch, tWorkbook,
	tRuns, tRun, tRunLogs, tStepLog, tForeachItems, tForeachItem,
}

var targets = map[string]targetSpec{
	tReferences:   {},
	tReference:    {optional: []string{fName}, singular: true},
	tDAGs:         {optional: []string{fQuery}},
	tDAG:          {required: []string{fName}},
	tDAGSpec:      {required: []string{fName}, singular: true},
	tDAGSearch:    {required: []string{fSearch}, optional: []string{fWorkspace, fCursor, fLimit}},
	tWiki:         {optional: []string{fWorkspace, fQuery, fPrefix}},
	tWikiPage:     {required: []string{fWorkspace, fPath}, singular: true},
	tWikiSearch:   {required: []string{fSearch}, optional: []string{fWorkspace, fPrefix, fCursor, fLimit}},
	tWorkbook:     {required: []string{fPath}, optional: []string{fPassword}},
	tRuns:         {optional: []string{fQuery}},
	tRun:          {required: []string{fName, fDAGRunID}, optional: []string{fSubRunID}, singular: true},
	tRunLogs:      {required: []string{fName, fDAGRunID}, optional: []string{fQuery}, singular: true},
	tStepLog:      {required: []string{fName, fDAGRunID, fStepName}, optional: []string{fSubRunID, fQuery, fItem, fBodyStepName}, singular: true},
	tForeachItems: {required: []string{fName, fDAGRunID, fStepName}, optional: []string{fSubRunID, fQuery}, singular: true},
	tForeachItem:  {required: []string{fName, fDAGRunID, fStepName, fItem}, optional: []string{fSubRunID}, singular: true},
}

// allows reports whether the target accepts the field (target itself is
// always allowed).
func (s targetSpec) allows(field string) bool {
	if field == fTarget {
		return true
	}
	return contains(s.required, field) || contains(s.optional, field)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
