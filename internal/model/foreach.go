// SPDX-License-Identifier: Apache-2.0

package model

import "encoding/json"

// ForeachCounts tallies a foreach step's items by status bucket, over all
// items before any status filter.
type ForeachCounts struct {
	NotStarted int `json:"notStarted"`
	Running    int `json:"running"`
	Succeeded  int `json:"succeeded"`
	Failed     int `json:"failed"`
	Aborted    int `json:"aborted"`
}

// ForeachItems is the data of the `foreach_items` target.
type ForeachItems struct {
	// DAGRunID is the concrete root run ID the items were read from (also
	// when the request said latest).
	DAGRunID string               `json:"dagRunId,omitempty"`
	Total    int                  `json:"total"`
	Counts   ForeachCounts        `json:"counts"`
	Items    []ForeachItemSummary `json:"items"`
	Page     int                  `json:"page"`
	PerPage  int                  `json:"perPage"`
	// HasMore is true when a later page holds more items.
	HasMore bool `json:"hasMore"`
	// Source says where the items came from: "foreach-route" on servers
	// with per-item records, "aggregate" when the gateway read the summary
	// an older server writes to the step's stdout after it finishes.
	Source string `json:"source"`
}

// ForeachItemSummary is one item of a foreach step.
type ForeachItemSummary struct {
	Item        string `json:"item"`
	Index       int    `json:"index"`
	Key         string `json:"key"`
	Status      int    `json:"status"`
	StatusLabel string `json:"statusLabel"`
	Error       string `json:"error,omitempty"`
	StartedAt   string `json:"startedAt,omitempty"`
	FinishedAt  string `json:"finishedAt,omitempty"`
	URI         string `json:"uri,omitempty"`
}

// ForeachItem is the data of the `foreach_item` target.
type ForeachItem struct {
	// DAGRunID is the concrete root run ID the item was read from (also
	// when the request said latest).
	DAGRunID string `json:"dagRunId,omitempty"`
	ForeachItemSummary
	Steps []ForeachBodyStep `json:"steps"`
	// StepsAvailable is false when the upstream Dagu cannot report body
	// steps (servers without per-item records).
	StepsAvailable bool   `json:"stepsAvailable"`
	Source         string `json:"source"`
}

// ForeachBodyStep is one body step of a foreach item.
type ForeachBodyStep struct {
	Name          string          `json:"name"`
	ID            string          `json:"id,omitempty"`
	Status        int             `json:"status"`
	StatusLabel   string          `json:"statusLabel"`
	HasStdout     bool            `json:"hasStdout"`
	HasStderr     bool            `json:"hasStderr"`
	Error         string          `json:"error,omitempty"`
	StartedAt     string          `json:"startedAt,omitempty"`
	FinishedAt    string          `json:"finishedAt,omitempty"`
	RetryCount    int             `json:"retryCount,omitempty"`
	ForeachParent string          `json:"foreachParent,omitempty"`
	LogURI        string          `json:"logUri,omitempty"`
	AgentSession  json.RawMessage `json:"agentSession,omitempty"`
	ModelUsage    json.RawMessage `json:"modelUsage,omitempty"`
}
