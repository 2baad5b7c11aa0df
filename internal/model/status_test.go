// SPDX-License-Identifier: Apache-2.0

package model

import "testing"

// TestStatusLabels pins every DAG-run and step status label the contract
// names, and the fallback for numbers outside the table.
func TestStatusLabels(t *testing.T) {
	t.Parallel()
	runs := map[int]string{
		0: "not_started", 1: "running", 2: "failed", 3: "aborted", 4: "succeeded",
		5: "queued", 6: "partially_succeeded", 7: "waiting", 8: "rejected",
		-1: "unknown", 9: "unknown",
	}
	for n, want := range runs {
		if got := RunStatusLabel(n); got != want {
			t.Errorf("RunStatusLabel(%d) = %q, want %q", n, got, want)
		}
	}
	steps := map[int]string{
		0: "not_started", 1: "running", 2: "failed", 3: "aborted", 4: "succeeded",
		5: "skipped", 6: "partially_succeeded", 7: "waiting", 8: "rejected", 9: "retrying",
		-1: "unknown", 10: "unknown",
	}
	for n, want := range steps {
		if got := NodeStatusLabel(n); got != want {
			t.Errorf("NodeStatusLabel(%d) = %q, want %q", n, got, want)
		}
	}
	if RunStatusLabel(MaxRunStatus) == "unknown" || RunStatusLabel(MaxRunStatus+1) != "unknown" {
		t.Errorf("MaxRunStatus %d is not the last run status", MaxRunStatus)
	}
}
