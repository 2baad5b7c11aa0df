// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestWhoseReadLinesAreSampled: verified callers and stdio (no trust
// decision) are always logged; refused and unchecked callers' read lines
// go through the sampler (internal/logsample bounds them).
func TestWhoseReadLinesAreSampled(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		trust  reqctx.Trust
		always bool
	}{
		{"", true}, {reqctx.TrustVerified, true},
		{reqctx.TrustRefused, false}, {reqctx.TrustUnchecked, false}, {reqctx.TrustLacksSurface, false},
	} {
		if got := alwaysLogged(tt.trust); got != tt.always {
			t.Errorf("trust %q: always logged %v, want %v", tt.trust, got, tt.always)
		}
	}
}
