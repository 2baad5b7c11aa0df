// SPDX-License-Identifier: Apache-2.0

// Package readcache holds the read path's caches, the local level and the
// shared level the replicas share (package sharedstate, when configured):
// DAGs (DAG specs and the DAG name list, a port's whole answer, which the
// layer around the ports, package portcache, answers from) and the REST
// parts several reads share, for upstream's call plans to ask: Runs (what
// a final run can no longer change), Lists (identical list reads),
// LatestHints and Roles. Each is built per Dagu server; several may live
// in one process, each with its own local caches and its own view of the
// shared store (Shared). It never depends on the read tool.
package readcache
