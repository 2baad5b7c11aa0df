// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/trace"
)

// tracingTransport makes each HTTP attempt of a traced read a client span
// and sends the W3C trace context (traceparent) to Dagu, through otelhttp
// with the global tracer provider and propagator. It wraps the transport
// under resty, so the guard has approved the request before it gets here,
// every retry is its own span, and it only adds the trace context headers.
//
// A request whose context carries no span (the gateway's own probes, or any
// request while tracing is off) goes straight to the base transport: no
// span, no header, no cost beyond one context look-up.
type tracingTransport struct {
	base, traced http.RoundTripper
}

// withTracing wraps base; see tracingTransport.
func withTracing(base http.RoundTripper) http.RoundTripper {
	return &tracingTransport{base: base, traced: otelhttp.NewTransport(base, otelhttp.WithSpanNameFormatter(spanName))}
}

// RoundTrip implements http.RoundTripper.
func (t *tracingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !trace.SpanContextFromContext(r.Context()).IsValid() {
		return t.base.RoundTrip(r)
	}
	return t.traced.RoundTrip(r)
}

// spanName is "GET {route template}" (low cardinality: never a DAG name or
// run ID), or the method alone when the route is unknown.
func spanName(_ string, r *http.Request) string {
	if route, ok := r.Context().Value(routeKey{}).(string); ok && route != "" {
		return r.Method + " " + route
	}
	return r.Method
}

// CloseIdleConnections closes the idle connections of the transport under
// the tracing (http.Client.CloseIdleConnections reaches it through here).
func (t *tracingTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
