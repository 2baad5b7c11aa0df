// SPDX-License-Identifier: Apache-2.0

package model

// Dagu's DAG-run status enum (0-8) and node/step status enum (0-9). The two
// agree on 0-4 and 6-8 and differ on 5 (queued for runs, skipped for steps).
var (
	runStatusLabels = []string{
		"not_started", "running", "failed", "aborted", "succeeded",
		"queued", "partially_succeeded", "waiting", "rejected",
	}
	nodeStatusLabels = []string{
		"not_started", "running", "failed", "aborted", "succeeded",
		"skipped", "partially_succeeded", "waiting", "rejected", "retrying",
	}
)

// MaxRunStatus is the largest DAG-run status number.
const MaxRunStatus = 8

// RunStatusLabel returns the label of a DAG-run status number, or "unknown".
func RunStatusLabel(status int) string {
	return labelOf(runStatusLabels, status)
}

// NodeStatusLabel returns the label of a step status number, or "unknown".
func NodeStatusLabel(status int) string {
	return labelOf(nodeStatusLabels, status)
}

func labelOf(labels []string, status int) string {
	if status < 0 || status >= len(labels) {
		return "unknown"
	}
	return labels[status]
}
