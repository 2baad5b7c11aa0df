// SPDX-License-Identifier: Apache-2.0

package promreg_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

func counterVec(help string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: "test_calls_total", Help: help}, []string{"target"})
}

// TestSharedReusesTheRegisteredCollector: a second registration of the
// same collector returns the first, so both users count into one series;
// a conflicting one (same name, other help) is an error.
func TestSharedReusesTheRegisteredCollector(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	first, err := promreg.Shared(reg, counterVec("calls"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := promreg.Shared(reg, counterVec("calls"))
	if err != nil || second != first {
		t.Fatalf("second registration: %p, %v; want the first, %p", second, err, first)
	}
	second.WithLabelValues("dag").Inc()
	if got := testCount(t, reg); got != 1 {
		t.Errorf("the shared series counts %v, want 1", got)
	}
	if _, err := promreg.Shared(reg, counterVec("other help")); err == nil {
		t.Error("a conflicting registration was accepted")
	}
}

// TestOwnRefusesASecondOwner: collectors with one owner per registry fail
// when registered twice.
func TestOwnRefusesASecondOwner(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	if err := promreg.Own(reg, counterVec("calls")); err != nil {
		t.Fatal(err)
	}
	if err := promreg.Own(reg, counterVec("calls")); err == nil {
		t.Error("a second owner was accepted")
	}
}

// TestNilRegistryRegistersNothing: without a registry both return at once,
// Shared with the collector it was given.
func TestNilRegistryRegistersNothing(t *testing.T) {
	t.Parallel()
	c := counterVec("calls")
	if got, err := promreg.Shared(nil, c); got != c || err != nil {
		t.Errorf("Shared(nil) = %p, %v; want %p, nil", got, err, c)
	}
	if err := promreg.Own(nil, c); err != nil {
		t.Errorf("Own(nil) = %v", err)
	}
}

// testCount is the sum of the values the registry gathers.
func testCount(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, f := range families {
		for _, m := range f.GetMetric() {
			sum += m.GetCounter().GetValue()
		}
	}
	return sum
}
