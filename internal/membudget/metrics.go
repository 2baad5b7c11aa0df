// SPDX-License-Identifier: Apache-2.0

package membudget

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// RegisterMetrics shows the memory budget (--memory-budget) on reg: its
// size, what requests in flight hold of it, and how many reservations it
// refused (a rising count is callers being told to retry).
func RegisterMetrics(reg prometheus.Registerer, memory *Budget) error {
	collectors := []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dagu_gateway_memory_budget_bytes",
			Help: "Size of the memory budget of everything in flight (--memory-budget)."},
			func() float64 { return float64(memory.Limit()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dagu_gateway_memory_in_use_bytes",
			Help: "Bytes of the memory budget reserved by requests, answers and Dagu bodies in flight."},
			func() float64 { return float64(memory.InUse()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "dagu_gateway_memory_refusals_total",
			Help: "Reservations the memory budget refused (answered 503 with Retry-After or resource_unavailable with retryAfterMs)."},
			func() float64 { return float64(memory.Refusals()) }),
	}
	return promreg.Own(reg, collectors...)
}
