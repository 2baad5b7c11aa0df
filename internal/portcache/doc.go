// SPDX-License-Identifier: Apache-2.0

// Package portcache is the cache layer around the read tool's ports
// (readtool.Upstream): a read it caches walks down once, the local level,
// then the shared level the replicas share, then the inner port (the
// upstream adapter, which decides the REST calls). It caches what is a
// port's whole answer, DAG specs and the DAG name list (readcache.DAGs);
// every other read passes through to the embedded inner port, so a new
// port method needs nothing here.
package portcache
