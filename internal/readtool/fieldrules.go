package readtool

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

const (
	minSearchLimit = 1
	maxSearchLimit = 50
	allWorkspaces  = "all"
)

// checkFieldValues applies the per-field value rules that go beyond
// presence: ranges, pairings and path syntax.
func checkFieldValues(c *call, _ targetSpec) *Error {
	in := c.in
	if in.hasLimit && (in.limit < minSearchLimit || in.limit > maxSearchLimit) {
		return invalidField(fLimit, fmt.Sprintf("The limit field must be from %d through %d.", minSearchLimit, maxSearchLimit))
	}
	if c.target == tStepLog {
		if err := checkItemPair(in); err != nil {
			return err
		}
	}
	if err := checkWorkspace(c.target, in.get(fWorkspace)); err != nil {
		return err
	}
	if c.target == tWikiPage && !validWikiPagePath(in.get(fPath)) {
		return invalidField(fPath, "The path field is not a valid Wiki page path (without the .md extension).")
	}
	if p := in.get(fPrefix); p != "" && !validWikiPrefix(p) {
		return invalidField(fPrefix, "The prefix field is not a valid Wiki page path prefix.")
	}
	return nil
}

// checkItemPair enforces that step_log's item and bodyStepName come together.
func checkItemPair(in *input) *Error {
	switch {
	case in.has(fItem) && !in.has(fBodyStepName):
		return invalidField(fBodyStepName, "The bodyStepName field is required when item is supplied.")
	case in.has(fBodyStepName) && !in.has(fItem):
		return invalidField(fItem, "The item field is required when bodyStepName is supplied.")
	}
	return nil
}

func checkWorkspace(target, ws string) *Error {
	switch {
	case ws == "":
		return nil
	case ws == allWorkspaces && target == tWikiPage:
		return invalidField(fWorkspace, "A Wiki page needs a concrete workspace; all is not allowed.")
	case ws == allWorkspaces:
		return nil
	case !validWorkspace(ws):
		return invalidField(fWorkspace, "The workspace field must be all, default or a workspace name of letters, digits, _ and - (at most 64).")
	}
	return nil
}

func invalidField(field, message string) *Error {
	return newError(CodeInvalidToolInput, message).withField(field)
}

// targetURI builds the canonical output URI of a target-mode read, or ""
// for targets the contract gives no URI in target mode.
func targetURI(c *call) string {
	in := c.in
	name, id, sub, step := in.get(fName), in.get(fDAGRunID), in.get(fSubRunID), in.get(fStepName)
	switch c.target {
	case tReference:
		return model.ReferenceURI(name)
	case tDAGSpec:
		return model.DAGSpecURI(name)
	case tWiki:
		return model.WithQuery(model.WikiURI(in.get(fWorkspace)), c.rawQuery())
	case tWikiPage:
		return model.WikiPageURI(in.get(fWorkspace), in.get(fPath))
	case tRun:
		return model.RunURI(name, id, sub)
	case tRunLogs:
		return model.WithQuery(model.RunLogsURI(name, id), c.rawQuery())
	case tStepLog:
		return model.WithQuery(stepLogURI(in), c.rawQuery())
	case tForeachItems:
		return model.WithQuery(model.ForeachItemsURI(name, id, sub, step), c.rawQuery())
	case tForeachItem:
		return model.ForeachItemURI(name, id, sub, step, in.get(fItem))
	}
	return ""
}

func stepLogURI(in *input) string {
	name, id, sub, step := in.get(fName), in.get(fDAGRunID), in.get(fSubRunID), in.get(fStepName)
	if in.has(fItem) {
		return model.ForeachStepLogURI(name, id, sub, step, in.get(fItem), in.get(fBodyStepName))
	}
	return model.StepLogURI(name, id, sub, step)
}
