// SPDX-License-Identifier: Apache-2.0

// Package mapping turns Dagu's REST answers (the generated types of package
// restclient/gen) into the dagu_read contract models of package model.
//
// Every function here is pure: no I/O, no clock, no shared state. Callers
// pass the decoded REST value plus the address values a URI needs (a
// requested DAG file name, the selected wiki workspace, the root run a
// sub-run lives under); every URI is built with model's builders.
//
// Two rules hold everywhere:
//   - Timestamps go through Time, so they come out in UTC with a Z and the
//     precision Dagu recorded, and unrecorded ones are omitted.
//   - Server filesystem paths (a run's scheduler log path, a step's stdout
//     and stderr paths) never reach a model; at most their presence does.
//
// Status labels are the contract's (model.RunStatusLabel and
// model.NodeStatusLabel) for every status number they know, whatever words
// the Dagu release used; Dagu's label is kept only for an unknown number.
package mapping
