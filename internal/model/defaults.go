// SPDX-License-Identifier: Apache-2.0

package model

import "time"

// Gateway decisions the contract leaves open. The upstream adapter applies
// them and the tool description states them, both from these constants.
const (
	// DefaultRunWindow is how far back an unfiltered runs read reaches.
	DefaultRunWindow = 7 * 24 * time.Hour
	// DefaultLogTail is how many lines a log read without a window returns
	// (the scheduler log of run_logs, each stream of step_log).
	DefaultLogTail = 200
	// DefaultLogBudget caps the bytes of each stream a default log window
	// returns; the last lines that fit are kept and hasMore is set.
	DefaultLogBudget = 32 << 10
)
