// Package fakedagu is an in-memory stand-in for a Dagu server's read-only
// REST API, built from responses recorded against a real server.
//
// It answers the GET routes the gateway uses under {BasePath}/api/v1 with the
// same status codes, content types, body shapes and quirks as the recordings
// (for example the empty 401, the plain-text router 404, the type-binding
// 400s and the empty 500 a step log answers when `stream` is missing).
//
// Data comes from testdata: fixtures/ holds the recordings, replayed exactly
// for their requests; derived/ holds what the recordings imply but do not
// show (spec texts of DAGs whose specs were not recorded, step lists of DAGs
// that never ran, per-item foreach records, wiki page contents). Runs that
// the recorded run list names without details are derived from the newest
// recorded run of the same DAG. Big logs are generated line by line, never
// stored. Beyond the recordings the fake adds one DAG, nested_foreach_job,
// with a still-running nested foreach run; Options.RecordedOnly hides it.
//
// The server records every request and can inject faults, for tests; the
// gateway's demo mode serves it on a loopback listener.
package fakedagu
