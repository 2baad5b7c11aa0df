// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics counts calls by target and result code. Label values come from
// fixed sets (known targets, contract codes), never from caller input.
type metrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// operation is the MCP semantic conventions' mcp.server.operation.duration
	// under its Prometheus name; error_type is the contract's error code, ""
	// on success.
	operation *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dagu_read_calls_total",
			Help: "dagu_read tool calls by target and result code (ok or a contract error code).",
		}, []string{"target", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dagu_read_duration_seconds",
			Help:    "dagu_read tool call duration by target, upstream time included.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 10),
		}, []string{"target"}),
		operation: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mcp_server_operation_duration_seconds",
			Help: "MCP request duration as observed on the server (mcp.server.operation.duration), by method, tool and error type.",
			// The bucket boundaries the MCP semantic conventions advise.
			Buckets: []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300},
		}, []string{"mcp_method_name", "gen_ai_tool_name", "error_type"}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.calls, err = register(reg, m.calls); err != nil {
		return nil, err
	}
	if m.duration, err = register(reg, m.duration); err != nil {
		return nil, err
	}
	if m.operation, err = register(reg, m.operation); err != nil {
		return nil, err
	}
	return m, nil
}

// register registers c, or returns the collector already registered under
// the same name so two tools on one registry share their metrics.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	return c, err
}

func (m *metrics) observe(target, code string, took time.Duration) {
	m.calls.WithLabelValues(target, code).Inc()
	m.duration.WithLabelValues(target).Observe(took.Seconds())
}

// observeOperation times one MCP request: method and tool are fixed
// names, errorType a contract code or "".
func (m *metrics) observeOperation(method, tool, errorType string, took time.Duration) {
	m.operation.WithLabelValues(method, tool, errorType).Observe(took.Seconds())
}
