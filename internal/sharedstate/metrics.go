// SPDX-License-Identifier: Apache-2.0

package sharedstate

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// metrics are the Store's Prometheus series. Label values come from
// constants of this package and from the callers' cache kinds, never from
// requests.
type metrics struct {
	up          prometheus.Gauge
	lastHealthy prometheus.Gauge
	nodeUp      *prometheus.GaugeVec   // node
	errors      *prometheus.CounterVec // op, reason
	fallbacks   *prometheus.CounterVec // op
	lookups     *prometheus.CounterVec // kind, result
	stores      *prometheus.CounterVec // kind, result
	rateLimited *prometheus.CounterVec // result
	coalesced   *prometheus.CounterVec // kind, result
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		up: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "dagu_gateway_shared_state_up",
			Help: "1 while the shared Redis answers (every master of a cluster), 0 while some or all of the gateway's reads fall back to per-replica caches and limits.",
		}),
		lastHealthy: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "dagu_gateway_shared_state_last_healthy_timestamp_seconds",
			Help: "When the shared Redis last answered while every node in use answered (Unix time); 0 before the first answer.",
		}),
		nodeUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "dagu_gateway_shared_state_node_up",
			Help: "Per node in use (the server, the master Sentinel named, or each master of a cluster, by address): 1 while it answers, 0 while its operations fall back.",
		}, []string{"node"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_state_errors_total",
			Help: "Shared-state operations that failed, by operation and reason (timeout, unreachable, server, garbage, protocol).",
		}, []string{"op", "reason"}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_state_fallbacks_total",
			Help: "Shared-state operations answered locally because the shared Redis was unavailable or paused.",
		}, []string{"op"}),
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_cache_lookups_total",
			Help: "Shared cache lookups by kind and result (hit, miss, invalid, unavailable).",
		}, []string{"kind", "result"}),
		stores: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_cache_stores_total",
			Help: "Shared cache stores by kind and result (stored, too_large, unavailable).",
		}, []string{"kind", "result"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_rate_limit_decisions_total",
			Help: "Cluster-wide rate-limit decisions by result (allowed, denied, unavailable).",
		}, []string{"result"}),
		coalesced: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_shared_coalesce_total",
			Help: "Coalesced reads by kind and how they were served (hit, led, waited, direct).",
		}, []string{"kind", "result"}),
	}
	if err := promreg.Own(reg, m.up, m.lastHealthy, m.nodeUp, m.errors, m.fallbacks, m.lookups, m.stores, m.rateLimited, m.coalesced); err != nil {
		return nil, fmt.Errorf("shared state metrics: %w", err)
	}
	return m, nil
}
