// SPDX-License-Identifier: Apache-2.0

// Package readcache is the one home of the read path's caching: a layer
// around the read tool's ports (readtool.Upstream) that answers from the
// local level, then from the shared level the replicas share (package
// sharedstate, when configured), and only then asks the inner port (the
// upstream adapter, which decides the REST calls).
//
// Layer caches what is a port's whole answer: DAG specs and the DAG name
// list; every other read passes through to the inner port. The REST parts
// several reads share are cached here too, for upstream's call plans to
// ask: Runs (what a final run can no longer change), Lists (identical list
// reads), LatestHints and Roles. Each is built per Dagu server; several may
// live in one process, each with its own local caches and its own view of
// the shared store (Shared).
package readcache
