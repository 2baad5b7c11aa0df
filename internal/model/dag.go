// SPDX-License-Identifier: Apache-2.0

package model

// Pagination describes one page of a paged collection, as Dagu reports it.
type Pagination struct {
	TotalRecords int `json:"totalRecords"`
	CurrentPage  int `json:"currentPage"`
	TotalPages   int `json:"totalPages"`
	NextPage     int `json:"nextPage"`
	PrevPage     int `json:"prevPage"`
}

// RunSummary is the short form of a DAG-run used inside DAG models.
type RunSummary struct {
	DAGRunID    string `json:"dagRunId"`
	Status      int    `json:"status"`
	StatusLabel string `json:"statusLabel"`
	URI         string `json:"uri,omitempty"`
	StartedAt   string `json:"startedAt,omitempty"`
	FinishedAt  string `json:"finishedAt,omitempty"`
}

// DAGCollection is the data of the `dags` target.
type DAGCollection struct {
	Items      []DAGItem  `json:"items"`
	Pagination Pagination `json:"pagination"`
	// Errors lists problems Dagu reported while loading the collection.
	Errors []string `json:"errors,omitempty"`
}

// DAGItem is one DAG of a DAG collection.
type DAGItem struct {
	Name        string      `json:"name"`
	URI         string      `json:"uri"`
	Suspended   bool        `json:"suspended"`
	Description string      `json:"description,omitempty"`
	Group       string      `json:"group,omitempty"`
	Workspace   string      `json:"workspace,omitempty"`
	Labels      []string    `json:"labels,omitempty"`
	Schedule    []string    `json:"schedule,omitempty"`
	NextRun     string      `json:"nextRun,omitempty"`
	LatestRun   *RunSummary `json:"latestRun,omitempty"`
	Errors      []string    `json:"errors,omitempty"`
}

// DAGDetail is the data of the `dag` target.
type DAGDetail struct {
	Name          string      `json:"name"`
	SpecURI       string      `json:"specUri"`
	Suspended     bool        `json:"suspended"`
	LatestRun     *RunSummary `json:"latestRun,omitempty"`
	Description   string      `json:"description,omitempty"`
	Group         string      `json:"group,omitempty"`
	Workspace     string      `json:"workspace,omitempty"`
	Labels        []string    `json:"labels,omitempty"`
	Schedule      []string    `json:"schedule,omitempty"`
	NextRun       string      `json:"nextRun,omitempty"`
	Params        []string    `json:"params,omitempty"`
	DefaultParams string      `json:"defaultParams,omitempty"`
	Queue         string      `json:"queue,omitempty"`
	MaxActiveRuns int         `json:"maxActiveRuns,omitempty"`
	Steps         []string    `json:"steps,omitempty"`
	Errors        []string    `json:"errors,omitempty"`
}

// DAGSpec is the data of the `dag_spec` target.
type DAGSpec struct {
	Name     string   `json:"name"`
	MimeType string   `json:"mimeType"`
	Spec     string   `json:"spec"`
	Errors   []string `json:"errors"`
}

// SearchMatch is one line-level snippet of a search result.
type SearchMatch struct {
	Line       string `json:"line"`
	LineNumber int    `json:"lineNumber"`
	StartLine  int    `json:"startLine"`
}

// DAGSearch is the data of the `dag_search` target.
type DAGSearch struct {
	Results    []DAGSearchResult `json:"results"`
	HasMore    bool              `json:"hasMore"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// DAGSearchResult is one DAG that matched a search.
type DAGSearchResult struct {
	Name           string        `json:"name"`
	URI            string        `json:"uri"`
	Workspace      string        `json:"workspace,omitempty"`
	Matches        []SearchMatch `json:"matches"`
	HasMoreMatches bool          `json:"hasMoreMatches"`
}
