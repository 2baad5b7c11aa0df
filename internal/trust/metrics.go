// SPDX-License-Identifier: Apache-2.0

package trust

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// Outcomes of a check, the result label of dagu_gateway_trust_checks_total.
const (
	resultAccepted     = "accepted"
	resultRefused      = "refused"
	resultLacksSurface = "lacks_surface"
	resultNoVerdict    = "no_verdict" // Dagu could not say
	resultLaneFull     = "lane_full"  // not asked: the lane of unknown keys was spent
)

// metrics are the Verifier's series; every label value is a constant of
// this package, never request data.
type metrics struct {
	decisions *prometheus.CounterVec // verdict
	checks    *prometheus.CounterVec // key (known, unknown), result
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_trust_decisions_total",
			Help: "Passthrough trust decisions by verdict (verified, refused, lacks-surface, unchecked).",
		}, []string{"verdict"}),
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_trust_checks_total",
			Help: "Checks of passthrough keys by kind (known: accepted within the known period, checked again; unknown) and result (accepted, refused, lacks_surface, no_verdict, lane_full: not asked).",
		}, []string{"key", "result"}),
	}
	if err := promreg.Own(reg, m.decisions, m.checks); err != nil {
		return nil, fmt.Errorf("trust metrics: %w", err)
	}
	return m, nil
}

// checked counts one check of a known or unknown key.
func (m *metrics) checked(known bool, result string) {
	key := "unknown"
	if known {
		key = "known"
	}
	m.checks.WithLabelValues(key, result).Inc()
}

// resultOf names a verdict Dagu gave.
func resultOf(v Verdict) string {
	switch v {
	case Verified:
		return resultAccepted
	case LacksSurface:
		return resultLacksSurface
	}
	return resultRefused
}
