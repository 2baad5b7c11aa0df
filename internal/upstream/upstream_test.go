// SPDX-License-Identifier: Apache-2.0

package upstream_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// The adapter is the read tool's upstream. The assertion lives in an
// external test package so that upstream's own code never imports readtool.
var _ readtool.Upstream = (*upstream.Adapter)(nil)

// TestSupportCoversEveryTarget: doctor's and /readyz's table lists every
// dagu_read target, in the order the tool advertises them, on every kind
// of server.
func TestSupportCoversEveryTarget(t *testing.T) {
	t.Parallel()
	enum := readtool.TargetNames()
	for _, caps := range []restclient.Capabilities{
		{Wiki: true, SearchDAGs: true, RunListFilters: true, SubRuns: true, ForeachRoutes: true, EventLogs: true},
		{Docs: true, SearchDocsLegacy: true, SearchDAGsLegacy: true, SubRuns: true},
		{APIBase: restclient.APIv2, SearchDAGsLegacy: true},
	} {
		rows := upstream.Support(caps, readtool.TargetRules())
		if len(rows) != len(enum) {
			t.Fatalf("%d rows for %d targets", len(rows), len(enum))
		}
		for i, r := range rows {
			if r.Target != enum[i] || r.How == "" {
				t.Errorf("row %d = %+v, want target %s", i, r, enum[i])
			}
		}
	}
}
