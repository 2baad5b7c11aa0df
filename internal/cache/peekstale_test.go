// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestPeekStaleSeesTheStaleWindow: PeekStale finds a fresh value and one
// within the stale window, not one past it, and counts nothing.
func TestPeekStaleSeesTheStaleWindow(t *testing.T) {
	t.Parallel()
	clk := testkit.NewClock(time.Unix(1_000_000, 0))
	c := newStringCache(t, Options[string]{TTL: time.Minute, StaleFor: time.Hour, Now: clk.Now})
	c.Add("k", "v")
	for _, tt := range []struct {
		after time.Duration
		want  bool
	}{
		{0, true},
		{time.Minute, true},
		{59 * time.Minute, true},
		{time.Minute, false}, // TTL + StaleFor have passed
	} {
		clk.Advance(tt.after)
		if v, ok := c.PeekStale("k"); ok != tt.want || (ok && v != "v") {
			t.Errorf("after +%s: PeekStale = %q, %v, want found %v", tt.after, v, ok, tt.want)
		}
	}
	if s := c.Stats(); s.Hits != 0 || s.Misses != 0 {
		t.Errorf("Stats = %+v, want no hits or misses", s)
	}
}
