// SPDX-License-Identifier: Apache-2.0

package readiness

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestCacheCallsDaguOncePerInterval: however often /readyz is asked, Dagu
// sees at most one probe per CacheTTL.
func TestCacheCallsDaguOncePerInterval(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	c := cache{now: func() time.Time { return now }}
	var calls atomic.Int32
	probe := func(context.Context) restclient.ProbeResult {
		calls.Add(1)
		return restclient.ProbeResult{OK: true}
	}
	for range 100 {
		c.probe(context.Background(), probe)
	}
	if calls.Load() != 1 {
		t.Fatalf("%d probes within the interval, want 1", calls.Load())
	}
	now = now.Add(CacheTTL)
	c.probe(context.Background(), probe)
	if calls.Load() != 2 {
		t.Fatalf("%d probes after the interval, want 2", calls.Load())
	}
}
