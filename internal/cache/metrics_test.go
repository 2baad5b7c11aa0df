// SPDX-License-Identifier: Apache-2.0

package cache

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func TestMetricsFollowStats(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewPedanticRegistry()
	c := newStringCache(t, Options[string]{
		Name: "dags", MaxEntries: 1, MaxBytes: 100, SizeOf: byteLen, Registerer: reg,
	})
	c.Add("a", "123")
	c.Get("a")
	c.Get("missing")
	c.Add("b", "12345") // evicts a

	want := map[string]float64{
		"dagu_gateway_cache_hits_total":      1,
		"dagu_gateway_cache_misses_total":    1,
		"dagu_gateway_cache_evictions_total": 1,
		"dagu_gateway_cache_entries":         1,
		"dagu_gateway_cache_bytes":           5,
	}
	got := gatherValues(t, reg, "dags")
	if len(got) != len(want) {
		t.Fatalf("gathered %v, want %v", got, want)
	}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s = %v, want %v", name, got[name], v)
		}
	}
}

func TestMetricsRegistration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		names   []string
		wantErr bool
	}{
		{"two caches with different names", []string{"dags", "runs"}, false},
		{"two caches with one name", []string{"dags", "dags"}, true},
		{"registerer without a name", []string{""}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			var err error
			for _, n := range tt.names {
				_, err = New[string](Options[string]{Name: n, MaxEntries: 1, TTL: time.Second, Registerer: reg})
				if err != nil {
					break
				}
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
		})
	}
}

// gatherValues returns the value of every series labelled cache=<name>.
func gatherValues(t *testing.T, reg prometheus.Gatherer, name string) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	values := make(map[string]float64)
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if !hasLabel(m.GetLabel(), "cache", name) {
				continue
			}
			switch {
			case m.GetCounter() != nil:
				values[f.GetName()] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				values[f.GetName()] = m.GetGauge().GetValue()
			}
		}
	}
	return values
}

func hasLabel(labels []*dto.LabelPair, name, value string) bool {
	for _, l := range labels {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}
