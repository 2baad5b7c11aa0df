// SPDX-License-Identifier: Apache-2.0

package model

import "encoding/json"

// RunCollection is the data of the `runs` target.
type RunCollection struct {
	Items      []RunItem `json:"items"`
	NextCursor string    `json:"nextCursor,omitempty"`
	// Window states the time window the list covers when the gateway
	// chose it (no fromDate/toDate supplied), so an agent knows older runs
	// exist outside it.
	Window *RunWindow `json:"window,omitempty"`
}

// RunWindow is the time window of a run list, as RFC 3339 UTC timestamps.
type RunWindow struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// RunItem is one DAG-run of a run collection.
type RunItem struct {
	Name           string   `json:"name"`
	DAGRunID       string   `json:"dagRunId"`
	URI            string   `json:"uri"`
	Status         int      `json:"status"`
	StatusLabel    string   `json:"statusLabel"`
	StartedAt      string   `json:"startedAt,omitempty"`
	FinishedAt     string   `json:"finishedAt,omitempty"`
	QueuedAt       string   `json:"queuedAt,omitempty"`
	Workspace      string   `json:"workspace,omitempty"`
	Labels         []string `json:"labels,omitempty"`
	TriggerType    string   `json:"triggerType,omitempty"`
	AutoRetryCount int      `json:"autoRetryCount,omitempty"`
}

// RunRef names the parent of a sub-run, or the root run it lives under.
type RunRef struct {
	Name     string `json:"name"`
	DAGRunID string `json:"dagRunId"`
	URI      string `json:"uri,omitempty"`
}

// RunDetail is the data of the `run` target, for root runs and sub-runs.
type RunDetail struct {
	Name                   string    `json:"name"`
	DAGRunID               string    `json:"dagRunId"`
	URI                    string    `json:"uri"`
	LogsURI                string    `json:"logsUri,omitempty"`
	AttemptID              string    `json:"attemptId,omitempty"`
	Status                 int       `json:"status"`
	StatusLabel            string    `json:"statusLabel"`
	StartedAt              string    `json:"startedAt,omitempty"`
	FinishedAt             string    `json:"finishedAt,omitempty"`
	QueuedAt               string    `json:"queuedAt,omitempty"`
	Steps                  []RunStep `json:"steps"`
	HumanTaskResumePending bool      `json:"humanTaskResumePending"`
	Params                 string    `json:"params,omitempty"`
	Labels                 []string  `json:"labels,omitempty"`
	TriggerType            string    `json:"triggerType,omitempty"`
	AutoRetryCount         int       `json:"autoRetryCount,omitempty"`
	RootRun                *RunRef   `json:"rootRun,omitempty"`
	ParentRun              *RunRef   `json:"parentRun,omitempty"`
	Handlers               []RunStep `json:"handlers,omitempty"`
	Preconditions          []string  `json:"preconditions,omitempty"`
	// Final is true when the run can no longer change (see
	// upstream's finalTarget): how long a client may keep the answer
	// depends on it. It is never part of the answer.
	Final bool `json:"-"`
}

// RunStep is one step of a DAG-run, in execution order.
type RunStep struct {
	Name        string       `json:"name"`
	ID          string       `json:"id,omitempty"`
	Status      int          `json:"status"`
	StatusLabel string       `json:"statusLabel"`
	LogURI      string       `json:"logUri"`
	Error       string       `json:"error,omitempty"`
	StartedAt   string       `json:"startedAt,omitempty"`
	FinishedAt  string       `json:"finishedAt,omitempty"`
	RetryCount  int          `json:"retryCount,omitempty"`
	ForeachURI  string       `json:"foreachUri,omitempty"`
	HumanTask   *HumanTask   `json:"humanTask,omitempty"`
	Approval    *Approval    `json:"approval,omitempty"`
	SubRuns     []SubRunLink `json:"subRuns,omitempty"`
	Handler     string       `json:"handler,omitempty"`
	Executor    string       `json:"executor,omitempty"`
}

// HumanTask describes an open human task a step waits on.
type HumanTask struct {
	Prompt string          `json:"prompt"`
	Form   json.RawMessage `json:"form,omitempty"`
}

// Approval describes an approval gate a step waits on.
type Approval struct {
	Prompt   string   `json:"prompt,omitempty"`
	Input    []string `json:"input,omitempty"`
	Required []string `json:"required,omitempty"`
}

// SubRunLink points at a sub DAG-run started by a step.
type SubRunLink struct {
	SubRunID string `json:"subRunId"`
	DAGName  string `json:"dagName,omitempty"`
	URI      string `json:"uri"`
	Repeated bool   `json:"repeated,omitempty"`
}

// LogWindow is one window of a log file.
type LogWindow struct {
	Content    string `json:"content"`
	LineCount  int    `json:"lineCount"`
	TotalLines int    `json:"totalLines"`
	HasMore    bool   `json:"hasMore"`
	// IsEstimate is true when Dagu estimated totalLines for a large file.
	IsEstimate bool `json:"isEstimate,omitempty"`
	// Cut is set when the gateway cut the window to fit its answer size.
	Cut *AnswerCut `json:"cut,omitempty"`
}

// AnswerCut says that a log window was cut on whole lines to fit the
// gateway's answer size (--max-answer-bytes), keeping the end of the
// window the query asked for (its last lines for a tail, its first lines
// otherwise), and which query reads a window that fits whole.
type AnswerCut struct {
	// LeftOutLines is the number of whole lines of the window left out.
	LeftOutLines int `json:"leftOutLines"`
	// Query is the query of a window of the same kind that fits.
	Query string `json:"query"`
	// Note says the same in words, for the agent.
	Note string `json:"note"`
}

// RunLogs is the data of the `run_logs` target.
type RunLogs struct {
	// DAGRunID is the concrete run ID the logs were read from (also when
	// the request said latest).
	DAGRunID     string        `json:"dagRunId,omitempty"`
	SchedulerLog LogWindow     `json:"schedulerLog"`
	StepLogs     []StepLogInfo `json:"stepLogs"`
	// Final is true when the run can no longer change (see
	// upstream's finalTarget): how long a client may keep the answer
	// depends on it. It is never part of the answer.
	Final bool `json:"-"`
}

// StepLogInfo lists one step's log streams inside RunLogs.
type StepLogInfo struct {
	StepName    string `json:"stepName"`
	Status      int    `json:"status"`
	StatusLabel string `json:"statusLabel"`
	HasStdout   bool   `json:"hasStdout"`
	HasStderr   bool   `json:"hasStderr"`
	LogURI      string `json:"logUri,omitempty"`
	StartedAt   string `json:"startedAt,omitempty"`
	FinishedAt  string `json:"finishedAt,omitempty"`
}

// StepLog is the data of the `step_log` target.
type StepLog struct {
	// DAGRunID is the root run ID the log was read from: the concrete ID
	// when the request said latest (a field the contract allows beyond
	// its own).
	DAGRunID      string `json:"dagRunId,omitempty"`
	StdoutContent string `json:"stdoutContent"`
	StderrContent string `json:"stderrContent"`
	LineCount     int    `json:"lineCount"`
	TotalLines    int    `json:"totalLines"`
	HasMore       bool   `json:"hasMore"`
	IsEstimate    bool   `json:"isEstimate,omitempty"`
	// Stream names the stream the line counts describe.
	Stream string `json:"stream"`
	// Cut is set when the gateway cut the window to fit its answer size.
	Cut *AnswerCut `json:"cut,omitempty"`
	// Final is true when the run can no longer change (see
	// upstream's finalTarget): how long a client may keep the answer
	// depends on it. It is never part of the answer.
	Final bool `json:"-"`
}
