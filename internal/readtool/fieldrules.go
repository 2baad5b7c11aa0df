// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

const (
	minSearchLimit = 1
	maxSearchLimit = 50
	allWorkspaces  = model.AllWorkspaces
)

// checkFieldValues applies the per-field value rules that go beyond
// presence: ranges, pairings and path syntax.
func checkFieldValues(c *call, spec *targetSpec) *Error {
	in := c.in
	if in.hasLimit && (in.limit < minSearchLimit || in.limit > maxSearchLimit) {
		return invalidField(fLimit, fmt.Sprintf("The limit field must be from %d through %d.", minSearchLimit, maxSearchLimit))
	}
	if ws := in.get(fWorkspace); ws != "" && ws != allWorkspaces && !validWorkspace(ws) {
		return invalidField(fWorkspace, "The workspace field must be all, default or a workspace name of letters, digits, _ and - (at most 64).")
	}
	if p := in.get(fPrefix); p != "" && !validWikiPrefix(p) {
		return invalidField(fPrefix, "The prefix field is not a valid Wiki page path prefix.")
	}
	if spec.validate != nil {
		return spec.validate(c)
	}
	return nil
}

// checkWikiPage wants a concrete workspace and a valid page path.
func checkWikiPage(c *call) *Error {
	if c.in.get(fWorkspace) == allWorkspaces {
		return invalidField(fWorkspace, "A Wiki page needs a concrete workspace; all is not allowed.")
	}
	if !validWikiPagePath(c.in.get(fPath)) {
		return invalidField(fPath, "The path field is not a valid Wiki page path (without the .md extension).")
	}
	return nil
}

// checkItemPair enforces that step_log's item and bodyStepName come together.
func checkItemPair(c *call) *Error {
	in := c.in
	switch {
	case in.has(fItem) && !in.has(fBodyStepName):
		return invalidField(fBodyStepName, "The bodyStepName field is required when item is supplied.")
	case in.has(fBodyStepName) && !in.has(fItem):
		return invalidField(fItem, "The item field is required when bodyStepName is supplied.")
	}
	return nil
}

func invalidField(field, message string) *Error {
	return newError(CodeInvalidToolInput, message).withField(field)
}
