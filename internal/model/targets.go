// SPDX-License-Identifier: Apache-2.0

package model

// The contract's read target names. The read tool's target table gives
// each its rules; the upstream adapter names them when it reports how the
// detected Dagu serves each target.
const (
	TargetReferences   = "references"
	TargetReference    = "reference"
	TargetDAGs         = "dags"
	TargetDAG          = "dag"
	TargetDAGSpec      = "dag_spec"
	TargetDAGSearch    = "dag_search"
	TargetWiki         = "wiki"
	TargetWikiPage     = "wiki_page"
	TargetWikiSearch   = "wiki_search"
	TargetWorkbook     = "workbook"
	TargetRuns         = "runs"
	TargetRun          = "run"
	TargetRunLogs      = "run_logs"
	TargetStepLog      = "step_log"
	TargetForeachItems = "foreach_items"
	TargetForeachItem  = "foreach_item"
)

// Targets lists every read target in the order the tool description
// advertises them. It returns a new slice each call.
func Targets() []string {
	return []string{
		TargetReferences, TargetReference, TargetDAGs, TargetDAG, TargetDAGSpec, TargetDAGSearch,
		TargetWiki, TargetWikiPage, TargetWikiSearch, TargetWorkbook,
		TargetRuns, TargetRun, TargetRunLogs, TargetStepLog, TargetForeachItems, TargetForeachItem,
	}
}
