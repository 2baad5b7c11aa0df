// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"unicode/utf8"
)

// Input limits, checked before any other work. Each bound is well above
// what Dagu itself accepts for the value (DAG names at most 40 characters,
// run IDs 22 or 36, workspace names 64, wiki paths 256), so no real value
// is refused, and no echo, URI or upstream request carries more than this.
const (
	maxArgumentsBytes = 2 << 20  // the whole arguments object (the HTTP front door allows 1 MiB)
	maxIdentifier     = 255      // name, stepName, bodyStepName
	maxRunID          = 128      // dagRunId, subRunId
	maxItemPath       = 128      // item
	maxSearch         = 1000     // search
	maxCursor         = 2048     // cursor
	maxQuery          = 4096     // query
	maxWorkbookPath   = 4096     // path of a workbook (PATH_MAX)
	maxPassword       = 255      // Excel's own limit
	maxURI            = 16 << 10 // uri
	maxTarget         = 64       // target
)

// fieldMaxLen is the longest value, in characters, each field may have.
// path is bounded per target (wiki pages are checked by their own rule).
var fieldMaxLen = map[string]int{
	fTarget: maxTarget, fName: maxIdentifier, fDAGRunID: maxRunID, fSubRunID: maxRunID,
	fStepName: maxIdentifier, fItem: maxItemPath, fBodyStepName: maxIdentifier,
	fQuery: maxQuery, fWorkspace: maxIdentifier, fPath: maxWorkbookPath, fPassword: maxPassword,
	fSearch: maxSearch, fPrefix: maxPagePath, fCursor: maxCursor, fURI: maxURI,
}

// pathSegmentFields name a single path segment of a Dagu REST route; "."
// and ".." there would address something else, so they are refused.
var pathSegmentFields = []string{fName, fDAGRunID, fSubRunID, fStepName, fItem, fBodyStepName}

// checkLimits refuses the first field (in contract order) that is too long
// or a dot segment.
func checkLimits(in *input) *Error {
	for _, f := range append([]string{fURI}, targetModeFields...) {
		v, ok := in.values[f]
		if !ok {
			continue
		}
		if max := fieldMaxLen[f]; utf8.RuneCountInString(v) > max {
			return invalidField(f, fmt.Sprintf("The %s field is longer than %d characters.", f, max))
		}
		if (v == "." || v == "..") && contains(pathSegmentFields, f) {
			return invalidField(f, fmt.Sprintf("The %s field cannot be %q.", f, v))
		}
	}
	return nil
}

// checkSegmentLimits applies the same limits to the values a URI's path
// segments give; the error names the uri and the segment.
func checkSegmentLimits(values map[string]string) *Error {
	e := checkLimits(&input{values: values})
	if e == nil {
		return nil
	}
	field := e.Field
	e.Code, e.Field = CodeInvalidResourceURI, ""
	return e.withDetails(map[string]any{"segment": field})
}
