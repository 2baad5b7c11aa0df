// SPDX-License-Identifier: Apache-2.0

package model

// FailureReason names a fact a port found that the failure's kind alone
// does not tell. The read tool words each one (readtool/failures.go); a
// port writes no agent-facing text.
type FailureReason string

// FailureArgs are the values a reason's message names, formatted, in the
// order its constant documents; unused places are "". An array, so a
// Failure stays comparable.
type FailureArgs [4]string

// Failure reasons. Args, where a reason has them, are listed in order.
const (
	// ReasonReadEnded: the read's own deadline passed, or its caller went
	// away, before any port said so.
	ReasonReadEnded FailureReason = "read_ended"
	// ReasonBusy: the gateway is already sending as many requests to Dagu
	// as it allows.
	ReasonBusy FailureReason = "busy"
	// ReasonMemoryShare: the caller's reads in flight already hold its
	// share of the gateway's memory budget.
	ReasonMemoryShare FailureReason = "memory_share"
	// ReasonMemoryBusy: requests and answers in flight already hold the
	// gateway's memory budget.
	ReasonMemoryBusy FailureReason = "memory_busy"
	// ReasonWikiDisabled: Dagu answered 403 for the wiki routes.
	ReasonWikiDisabled FailureReason = "wiki_disabled"
	// ReasonNoWiki: the Dagu release has no wiki (Dagu 1.x).
	ReasonNoWiki FailureReason = "no_wiki"
	// ReasonNoSubRuns: the Dagu release has neither sub-run route family.
	ReasonNoSubRuns FailureReason = "no_sub_runs"
	// ReasonNoForeach: the Dagu release has neither the foreach routes nor
	// the step-log downloads a foreach summary is read from.
	ReasonNoForeach FailureReason = "no_foreach"
	// ReasonNoBodyStepLogs: body-step logs need per-item foreach records.
	ReasonNoBodyStepLogs FailureReason = "no_body_step_logs"
	// ReasonNoLiveForeach: a running foreach step's items need per-item
	// foreach records.
	ReasonNoLiveForeach FailureReason = "no_live_foreach"
	// ReasonNoNestedForeach: nested foreach items need per-item foreach
	// records.
	ReasonNoNestedForeach FailureReason = "no_nested_foreach"
	// ReasonForeachSummary: the foreach summary in the step's output
	// could not be read.
	ReasonForeachSummary FailureReason = "foreach_summary_unreadable"
	// ReasonBadCursor: the cursor was not issued by this gateway or is
	// damaged.
	ReasonBadCursor FailureReason = "bad_cursor"
	// ReasonRootRunLogsOnly: run logs were asked of a sub-run.
	ReasonRootRunLogsOnly FailureReason = "run_logs_of_sub_run"
	// ReasonBadStream: a log stream other than stdout or stderr.
	ReasonBadStream FailureReason = "bad_stream"
	// ReasonNotForeachStep: the step exists but is not a foreach step.
	// Args: the step's name.
	ReasonNotForeachStep FailureReason = "not_foreach_step"
	// ReasonNoStreamLog: the step has no log of the stream asked for.
	// Args: step name, item, body step name ("" for a plain step), stream.
	ReasonNoStreamLog FailureReason = "no_stream_log"
	// ReasonNoLogOutput: the step has no log of either stream yet.
	// Args: step name, item, body step name ("" for a plain step).
	ReasonNoLogOutput FailureReason = "no_log_output"
	// ReasonLabelScanLimit: a one-label Dagu release cannot filter by
	// several labels within the gateway's scan limit. Args: the label sent,
	// the scan limit, the number of DAGs carrying the label.
	ReasonLabelScanLimit FailureReason = "label_scan_limit"
)
