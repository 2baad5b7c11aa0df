// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
)

// metrics counts upstream calls. A nil *metrics records nothing.
type metrics struct {
	requests *prometheus.CounterVec
	retries  *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// newMetrics registers the collectors with reg; nil reg disables metrics.
// Collectors already registered by another client are reused.
func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_upstream_requests_total",
			Help: "Calls to the Dagu REST API by route template and outcome (status class such as 2xx, or a failure kind such as timeout).",
		}, []string{"route", "outcome"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_gateway_upstream_retries_total",
			Help: "Retries of calls to the Dagu REST API by route template.",
		}, []string{"route"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dagu_gateway_upstream_request_duration_seconds",
			Help:    "Time until Dagu's answer headers arrived (retries included) by route template.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 10),
		}, []string{"route"}),
	}
	var err error
	if m.requests, err = promreg.Shared(reg, m.requests); err != nil {
		return nil, err
	}
	if m.retries, err = promreg.Shared(reg, m.retries); err != nil {
		return nil, err
	}
	if m.latency, err = promreg.Shared(reg, m.latency); err != nil {
		return nil, err
	}
	return m, nil
}

// observe records one finished call. Refused calls have no route when the
// path matched nothing; they are counted under "unmatched".
func (m *metrics) observe(route, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, outcome).Inc()
	if took > 0 {
		m.latency.WithLabelValues(route).Observe(took.Seconds())
	}
}

// retried records one retry.
func (m *metrics) retried(route string) {
	if m == nil {
		return
	}
	m.retries.WithLabelValues(route).Inc()
}
