// SPDX-License-Identifier: Apache-2.0

// Package readcache is the one home of the read path's caching: a layer
// around the read tool's ports (readtool.Upstream) that answers from the
// local level, then from the shared level the replicas share (package
// sharedstate, when configured), and only then asks the inner port (the
// upstream adapter, which decides the REST calls).
//
// Layer caches what is a port's whole answer: DAG specs and the DAG name
// list. Every other read passes through to the inner port. A layer is
// built per Dagu server; several may live in one process, each with its
// own local caches and its own scope in the shared store (Shared).
package readcache
