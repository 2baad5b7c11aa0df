// SPDX-License-Identifier: Apache-2.0

// Package fakedagu is an in-memory stand-in for a Dagu server's read-only
// REST API, built from responses recorded against real servers.
//
// Options.Profile selects the release to imitate: ProfileCurrent (the
// default) serves {BasePath}/api/v1 like the current Dagu; Profile26,
// Profile20, Profile129 and Profile117 imitate Dagu 2.6.5, 2.0.0, 1.29.2
// and 1.17.4. Each profile answers the GET routes the gateway uses with
// the same status codes, content types, body shapes and quirks as that
// release's recordings (for example the empty 401, the plain-text router
// 404, the type-binding 400s and the empty 500 a step log answers when
// `stream` is missing). What differs between releases beyond the recorded
// bodies (API base, route groups, auth, query binding, a few messages) is
// one row per release in dialect.go; the handlers are shared.
//
// Data comes from testdata: fixtures/ holds the current recordings and
// profiles/v<release>/ those of the older releases, replayed exactly for
// their requests (index.json lists them; replay-exceptions.json names the
// few answers that show an earlier state of the recorded server). derived/
// (and profiles/v<release>/derived/) hold what the recordings imply but do
// not show (spec texts of DAGs whose specs were not recorded, step lists
// of DAGs that never ran, per-item foreach records, wiki and docs page
// contents). Specs of older releases are pieced together from recorded
// search snippets; DAG details they never show are derived in the shape
// of the recorded ones. Runs that a recorded run list names without
// details are derived from the newest recorded run of the same DAG. Big
// logs are generated line by line, never stored. Beyond the recordings the
// current profile adds one DAG, nested_foreach_job, with a still-running
// nested foreach run; Options.RecordedOnly hides it.
//
// The server records every request and can inject faults, for tests; the
// gateway's demo mode serves it on a loopback listener.
package fakedagu
