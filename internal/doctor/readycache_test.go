// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestReadinessCallsDaguOncePerInterval: however often /readyz is asked, Dagu
// sees at most one probe per readyCacheTTL.
func TestReadinessCallsDaguOncePerInterval(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	c := readyCache{now: func() time.Time { return now }}
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
	now = now.Add(readyCacheTTL)
	c.probe(context.Background(), probe)
	if calls.Load() != 2 {
		t.Fatalf("%d probes after the interval, want 2", calls.Load())
	}
}
