// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestMetricsCountDecisionsAndChecks: every decision is counted by
// verdict, every check by the kind of key and its result, and checks the
// lane refused as lane_full, so an operator sees a flood of made-up keys.
func TestMetricsCountDecisionsAndChecks(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	v, _, _ := newVerifier(t, func(o *Options) { o.Registerer = reg })
	ctx := context.Background()
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	v.Decide(ctx, goodKey, "10.0.0.1:1")
	flood(v, "a", DefaultChecksBurst+3, oneAddress)
	for _, tt := range []struct {
		c    prometheus.Collector
		want float64
	}{
		{v.metrics.decisions.WithLabelValues("verified"), 2},
		{v.metrics.decisions.WithLabelValues("refused"), DefaultChecksBurst},
		{v.metrics.decisions.WithLabelValues("unchecked"), 3},
		{v.metrics.checks.WithLabelValues("unknown", resultAccepted), 1},
		{v.metrics.checks.WithLabelValues("unknown", resultRefused), DefaultChecksBurst},
		{v.metrics.checks.WithLabelValues("unknown", resultLaneFull), 3},
	} {
		if got := testutil.ToFloat64(tt.c); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.c, got, tt.want)
		}
	}
}
