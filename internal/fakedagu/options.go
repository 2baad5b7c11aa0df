// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"strings"
	"time"
)

// ForeachMode selects which generation of Dagu the fake imitates for
// foreach steps.
type ForeachMode int

const (
	// ForeachAggregate imitates the recorded (older) server: the foreach
	// routes answer the router's 404 and a finished foreach step's stdout
	// holds the aggregate summary. It is the default.
	ForeachAggregate ForeachMode = iota
	// ForeachRoutes imitates a newer server that serves per-item records
	// on the foreach routes (mapping §8).
	ForeachRoutes
)

// Options configure a fake server. The zero value is a server without
// authentication that imitates the recorded current Dagu.
type Options struct {
	// Profile selects the Dagu release to imitate (default
	// ProfileCurrent). Routes, API base, status codes, content types and
	// body shapes follow that release's recordings.
	Profile Profile
	// APIKey is the bearer key accepted on the REST API (the static token
	// on 1.17); "" means auth mode none, where every request is allowed.
	APIKey string
	// MCPOnlyKey is a key that exists but lacks the rest_api surface: the
	// current Dagu answers it with a plain-text 403; releases without key
	// surfaces (1.29 to 2.6) accept it like APIKey; 1.17 has no keys and
	// refuses it like any unknown token.
	MCPOnlyKey string
	// BasicUsername and BasicPassword are basic credentials accepted next
	// to the token by releases that allow basic auth (1.17); ignored by the
	// others.
	BasicUsername string
	BasicPassword string
	// Role is the role of APIKey's user: viewer (the default, as
	// recorded), operator, developer, manager or admin. Only manager and
	// admin may read /event-logs.
	Role string
	// BasePath is the server's base path; routes live under BasePath plus
	// the profile's API base, "/api/v1" or "/api/v2" (e.g. "/dagu" gives
	// "/dagu/api/v1/dags").
	BasePath string
	// Foreach selects the foreach generation (default ForeachAggregate).
	// Only the current profile has foreach routes; older releases never
	// do.
	Foreach ForeachMode
	// WikiDisabled makes the wiki routes answer 403, as a server without a
	// wiki store does (current profile; the docs routes of 2.x ignore it).
	WikiDisabled bool
	// Now is the clock for the run list's implicit today-only window and
	// the health answer; default time.Now.
	Now func() time.Time
	// Rebase, when set, moves every recorded timestamp so that the newest
	// recorded run starts at Rebase (the demo uses it so runs look recent).
	Rebase time.Time
	// RecordedOnly hides what the fake adds beyond the recorded server (the
	// nested_foreach_job DAG and its running run), so that list answers
	// equal the recordings exactly.
	RecordedOnly bool
	// ListedDAGs adds DAG files that only the DAG list (GET /dags) shows,
	// with the list entry shape of the fake's extra DAGs and no runs, for
	// tests of lists longer than the recorded one. Every other route
	// ignores them.
	ListedDAGs []ListedDAG
	// LostStepLogs are step log files the server can no longer read: the
	// step-log routes answer them as the release answers a missing file
	// (404 on 2.0 and later, 500 on 1.x).
	LostStepLogs []LostStepLog
	// LostSchedulerLogs are the IDs of root runs and sub-runs whose
	// scheduler log file the server can no longer read: the scheduler-log
	// routes answer them as the release answers a missing file (404 on 2.0
	// and later, 500 on 1.x).
	LostSchedulerLogs []string
	// BigLogLineWidth, when above the width of its lines, pads every line
	// of big_log_job's step spew (stdout) to that many characters: the same
	// 20,000-line file, as a step that writes long lines leaves it, for
	// tests of answers too large to send whole.
	BigLogLineWidth int
}

// LostStepLog is a step log file the server has lost (removed by log
// retention, say) while the run's details still name it.
type LostStepLog struct {
	// RunID is the ID of the root run or sub-run the step belongs to.
	RunID string
	Step  string
	// Stream is "stdout" or "stderr".
	Stream string
}

// ListedDAG is one DAG file of Options.ListedDAGs.
type ListedDAG struct {
	Name   string
	Labels []string
}

// Roles that may read the event log.
const (
	roleViewer  = "viewer"
	roleManager = "manager"
	roleAdmin   = "admin"
)

// withDefaults fills in the defaults and normalises the base path.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Role == "" {
		o.Role = roleViewer
	}
	if o.Profile == "" {
		o.Profile = ProfileCurrent
	}
	o.BasePath = "/" + strings.Trim(o.BasePath, "/")
	if o.BasePath == "/" {
		o.BasePath = ""
	}
	return o
}
