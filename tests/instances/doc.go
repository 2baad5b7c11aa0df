// SPDX-License-Identifier: Apache-2.0

// Package instances runs one built gateway in front of two Dagu servers
// (serve --instances, issue 31) and checks what the issue says must hold:
// each endpoint /dagu/<name>/mcp answers from its own Dagu (its own run
// IDs), each with its own dialect, and a key for one Dagu never reaches
// the other.
//
// In CI both Dagu servers are recording-backed fakes of different releases
// (the current one and 1.29), served by this process behind a front that
// records every request's path and credential. With INSTANCES_DAGU_URL and
// INSTANCES_DAGU_KEY (a key with the rest_api surface; INSTANCES_DAGU_API
// names its REST base, /api/v1 unless set) the current fake is replaced by
// that real Dagu, which must hold a DAG named failing_job with a run.
//
// The gateway is ./cmd/gateway built once (or INSTANCES_GATEWAY_BIN). The
// suite takes seconds, behind the build tag instances, outside
// `go test ./...`:
//
//	go test -tags instances -v ./tests/instances/
//	make instances
//
// make instances-rss measures the resident memory of 20 idle instances
// against one (TestIdleInstancesRSS, INSTANCES_RSS=1; Linux only).
package instances
