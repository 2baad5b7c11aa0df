// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// metrics counts calls by target and result code, and those of signed-in
// people by the access rule that admitted them (never by person). Label
// values come from fixed sets (known targets, contract codes, the
// operator's rule names), never from caller input.
type metrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
	byRule   *prometheus.CounterVec
}

// readBuckets are the boundaries of the read duration histogram, in
// seconds, up to the largest whole-call timeout an operator would set.
var readBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300}

// durationBuckets are readBuckets up to the call timeout, which is the
// last bucket: a read cannot take longer, so every observation falls into
// a bucket that says something. No timeout keeps them all.
func durationBuckets(callTimeout time.Duration) []float64 {
	limit := callTimeout.Seconds()
	if limit <= 0 {
		return readBuckets
	}
	var out []float64
	for _, b := range readBuckets {
		if b < limit {
			out = append(out, b)
		}
	}
	return append(out, limit)
}

func newMetrics(reg prometheus.Registerer, callTimeout time.Duration) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_read_calls_total",
			Help: "dagu_read reads (tool calls and resource reads) by target and result code (ok or a contract error code).",
		}, []string{"target", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dagu_gateway_read_duration_seconds",
			Help:    "dagu_read read duration by target, upstream time included; the last bucket is the call timeout.",
			Buckets: durationBuckets(callTimeout),
		}, []string{"target"}),
		byRule: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_read_calls_by_rule_total",
			Help: "dagu_read reads of people who signed in with the OpenID provider, by the access rule that admitted them and result code.",
		}, []string{"rule", "code"}),
	}
	// Two tools on one registry share their metrics.
	var err error
	if m.calls, err = promreg.Shared(reg, m.calls); err != nil {
		return nil, err
	}
	if m.duration, err = promreg.Shared(reg, m.duration); err != nil {
		return nil, err
	}
	if m.byRule, err = promreg.Shared(reg, m.byRule); err != nil {
		return nil, err
	}
	return m, nil
}

// observe counts one read of target with code, and by rule when an access
// rule admitted its caller (rule not empty).
func (m *metrics) observe(target, code, rule string, took time.Duration) {
	m.calls.WithLabelValues(target, code).Inc()
	m.duration.WithLabelValues(target).Observe(took.Seconds())
	if rule != "" {
		m.byRule.WithLabelValues(rule, code).Inc()
	}
}
