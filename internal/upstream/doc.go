// SPDX-License-Identifier: Apache-2.0

// Package upstream implements the read tool's Upstream port over Dagu's
// REST API: it decides which REST calls answer each read (as few as the
// read allows), runs them through package restclient, turns the answers
// into the contract's models with package mapping. Its caches are the one
// cache layer of a read, each a local level (Stores, bounded per process
// and scoped per Dagu server) and the replicas' shared level behind it
// (package sharedstate): what a port answers whole (DAG specs, the name
// list, dagcache.go), and the REST parts several reads share, which the
// call plans ask for (parts of final runs: runCache around the REST reads
// of restRuns; identical list reads; latest-run hints; the key's role).
// Every cache sits below the plans and above the REST client: a read goes
// down through it and never calls back up.
//
// ports.go is the package's public face: one method per read, each
// reporting failures as *model.Failure values that name the input at fault
// (translated once, in errors.go). The Dagu release dialects and the
// server's detected capabilities live here, so the read tool never learns
// which Dagu answered.
package upstream
