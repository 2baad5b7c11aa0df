// SPDX-License-Identifier: Apache-2.0

package model

// The contract's input field names. The read tool parses them, the
// upstream adapter and the workbook profiler name them when they blame an
// input, and error objects carry them in `field`.
const (
	FieldTarget       = "target"
	FieldName         = "name"
	FieldDAGRunID     = "dagRunId"
	FieldSubRunID     = "subRunId"
	FieldStepName     = "stepName"
	FieldItem         = "item"
	FieldBodyStepName = "bodyStepName"
	FieldQuery        = "query"
	FieldWorkspace    = "workspace"
	FieldPath         = "path"
	FieldPassword     = "password"
	FieldSearch       = "search"
	FieldPrefix       = "prefix"
	FieldCursor       = "cursor"
	FieldLimit        = "limit"
	FieldURI          = "uri"
)

// Query parameters the upstream adapter may blame; the read tool reports
// them as the query field with the parameter in details.
const (
	ParamStream = "stream"
	ParamParent = "parent"
	ParamCursor = "cursor"
	ParamLabels = "labels"
)

// AllWorkspaces is the workspace value that stands for every workspace the
// caller may read (the default of lists and searches).
const AllWorkspaces = "all"

// LatestRun is the dagRunId alias for a DAG's most recent run.
const LatestRun = "latest"
