// SPDX-License-Identifier: Apache-2.0

package logsample_test

import (
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/logsample"
)

// TestUnverifiedLinesAreBounded: verified lines always pass; unverified
// ones stop at the burst, and the first line after a refill counts the
// dropped ones. The clock is moved by hand.
func TestUnverifiedLinesAreBounded(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	s := logsample.New(func() time.Time { return now })
	for range 3 * logsample.Burst {
		if ok, dropped := s.Admit(true); !ok || dropped != 0 {
			t.Fatalf("a verified line: admitted %v, dropped %d", ok, dropped)
		}
	}
	const tries = 5 * logsample.Burst
	admitted := 0
	for range tries {
		if ok, _ := s.Admit(false); ok {
			admitted++
		}
	}
	if admitted != logsample.Burst {
		t.Fatalf("%d of %d unverified lines admitted at one instant, want the burst %d", admitted, tries, logsample.Burst)
	}
	now = now.Add(time.Second / logsample.LinesPerSecond)
	ok, dropped := s.Admit(false)
	if !ok || dropped != tries-logsample.Burst {
		t.Fatalf("after a refill: admitted %v, dropped %d; want true, %d", ok, dropped, tries-logsample.Burst)
	}
	if ok, dropped := s.Admit(false); ok || dropped != 0 {
		t.Fatalf("the refill admitted a second line (%v, %d)", ok, dropped)
	}
}
