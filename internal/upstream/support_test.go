// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestSupportRuleForEveryTarget: every target of model.Targets has its own
// support rule (Support never falls back to "no support rule"), and no
// rule names a target that does not exist.
func TestSupportRuleForEveryTarget(t *testing.T) {
	t.Parallel()
	names := model.Targets()
	for _, name := range names {
		if supportRules[name] == nil {
			t.Errorf("target %s has no support rule", name)
		}
	}
	if len(supportRules) != len(names) {
		t.Errorf("%d support rules for %d targets", len(supportRules), len(names))
	}
}
