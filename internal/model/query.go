// SPDX-License-Identifier: Apache-2.0

package model

// Zero values in these request types mean "not supplied": the upstream
// adapter leaves the matching REST parameter out.

// DAGListQuery selects a page of the DAG collection.
type DAGListQuery struct {
	Page    int
	PerPage int
	Name    string
	Labels  []string
	Sort    string
	Order   string
}

// DAGSearchQuery is a full-text search over DAG definitions.
type DAGSearchQuery struct {
	Search    string
	Workspace string
	Cursor    string
	Limit     int
}

// RunListQuery selects DAG-runs. FromDate and ToDate are Unix seconds.
type RunListQuery struct {
	Name     string
	DAGRunID string
	Status   []int
	FromDate *int64
	ToDate   *int64
	Limit    int
	Cursor   string
	Labels   []string
}

// RunAddress names a root run, or a sub-run under it when SubRunID is set.
// DAGRunID may be "latest".
type RunAddress struct {
	Name     string
	DAGRunID string
	SubRunID string
}

// StepAddress names a step of a run, or a body step of a foreach item when
// Item and BodyStepName are set.
type StepAddress struct {
	RunAddress
	StepName     string
	Item         string
	BodyStepName string
}

// LogQuery selects a window of a log. At most one of Tail, Head and Offset
// is set; Limit goes with Offset or alone. Stream is "", "stdout" or
// "stderr" ("" means both streams for step logs).
type LogQuery struct {
	Tail   int
	Head   int
	Offset int
	Limit  int
	Stream string
}

// ForeachQuery filters and pages the items of a foreach step.
type ForeachQuery struct {
	Parent  string
	Status  string
	Page    int
	PerPage int
}

// WikiListQuery selects a page of the wiki collection.
type WikiListQuery struct {
	Workspace string
	Prefix    string
	Page      int
	PerPage   int
	Flat      bool
	Sort      string
	Order     string
}

// WikiSearchQuery is a full-text search over wiki pages.
type WikiSearchQuery struct {
	Search    string
	Workspace string
	Prefix    string
	Cursor    string
	Limit     int
}
