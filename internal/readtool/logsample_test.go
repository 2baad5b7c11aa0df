// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestUnverifiedReadLinesAreBounded: verified callers and stdio are always
// logged; the lines of refused or unchecked callers stop at the bucket,
// and the next admitted line counts the dropped ones.
func TestUnverifiedReadLinesAreBounded(t *testing.T) {
	t.Parallel()
	s := newReadLogSampler()
	for _, trust := range []reqctx.Trust{"", reqctx.TrustVerified} {
		for range 3 * unverifiedReadLinesBurst {
			if ok, _ := s.admit(trust); !ok {
				t.Fatalf("a line of trust %q was dropped", trust)
			}
		}
	}
	start := time.Now()
	admitted := 0
	const tries = 5 * unverifiedReadLinesBurst
	for i := range tries {
		trust := reqctx.TrustRefused
		if i%2 == 1 {
			trust = reqctx.TrustUnchecked
		}
		if ok, _ := s.admit(trust); ok {
			admitted++
		}
	}
	refill := int(time.Since(start).Seconds()*unverifiedReadLinesPerSecond) + 1
	if admitted > unverifiedReadLinesBurst+refill {
		t.Errorf("%d of %d unverified lines admitted, want at most %d", admitted, tries, unverifiedReadLinesBurst+refill)
	}
	time.Sleep(time.Second / unverifiedReadLinesPerSecond * 2)
	ok, dropped := s.admit(reqctx.TrustRefused)
	if !ok || dropped != int64(tries-admitted) {
		t.Errorf("after a refill: admitted %v, dropped %d; want true, %d", ok, dropped, tries-admitted)
	}
}
