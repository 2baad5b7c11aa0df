// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestMemoryMetricsFollowTheBudget: the gauges show the budget's size and
// what is reserved, the counter its refusals.
func TestMemoryMetricsFollowTheBudget(t *testing.T) {
	t.Parallel()
	memory := New("test", 1000)
	reg := prometheus.NewRegistry()
	if err := RegisterMetrics(reg, memory); err != nil {
		t.Fatal(err)
	}
	held, _ := memory.Reserve(300)
	_, _ = memory.Reserve(800)
	defer held.Release()
	want := map[string]float64{
		"dagu_gateway_memory_budget_bytes":   1000,
		"dagu_gateway_memory_in_use_bytes":   300,
		"dagu_gateway_memory_refusals_total": 1,
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		got := f.GetMetric()[0]
		value := got.GetGauge().GetValue() + got.GetCounter().GetValue()
		if value != want[f.GetName()] {
			t.Errorf("%s = %v, want %v", f.GetName(), value, want[f.GetName()])
		}
		delete(want, f.GetName())
	}
	if len(want) > 0 {
		t.Fatalf("not registered: %v", want)
	}
}
