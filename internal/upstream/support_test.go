// SPDX-License-Identifier: Apache-2.0

package upstream_test

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
)

// TestSupportRuleForEveryTarget: the support rule every target row names
// exists here (Support never falls back to "no support rule").
func TestSupportRuleForEveryTarget(t *testing.T) {
	t.Parallel()
	for _, r := range readtool.TargetRules() {
		if !upstream.HasSupportRule(r.Support) {
			t.Errorf("target %s names support rule %q, which internal/upstream/support.go does not have", r.Target, r.Support)
		}
	}
}
