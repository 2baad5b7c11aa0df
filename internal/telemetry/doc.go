// SPDX-License-Identifier: Apache-2.0

// Package telemetry is what the gateway tells its operator: the process
// logger with its secret scrubber (the configured Dagu key and inbound
// tokens, and a request's own Dagu key), OpenTelemetry tracing turned on by the
// standard OTEL_* variables (read through the injected environment), and
// the Prometheus registry and handler behind /metrics. It knows nothing of
// Dagu's REST API or the contract.
package telemetry
