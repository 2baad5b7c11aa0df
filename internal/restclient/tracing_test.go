// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// recordHeader is a transport that answers 204 and keeps the last request.
type recordHeader struct{ last *http.Request }

func (r *recordHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	r.last = req
	rec := httptest.NewRecorder()
	rec.WriteHeader(http.StatusNoContent)
	return rec.Result(), nil
}

func TestTracingTransport(t *testing.T) {
	t.Parallel()
	prev := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTextMapPropagator(prev) })
	traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled})
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"no span: untouched", context.Background(), ""},
		{"inside a span: trace context sent", trace.ContextWithSpanContext(context.Background(), parent), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := &recordHeader{}
			req := httptest.NewRequestWithContext(tc.ctx, http.MethodGet, "http://dagu.test/api/v1/dags", nil)
			res, err := withTracing(base).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if got := base.last.Header.Get("traceparent"); got != tc.want {
				t.Errorf("traceparent = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSpanName(t *testing.T) {
	t.Parallel()
	req := httptest.NewRequest(http.MethodGet, "http://dagu.test/api/v1/dags/a", nil)
	if got := spanName("", req); got != "GET" {
		t.Errorf("without a route: %q", got)
	}
	req = req.WithContext(context.WithValue(req.Context(), routeKey{}, "/dags/{fileName}"))
	if got := spanName("", req); got != "GET /dags/{fileName}" {
		t.Errorf("with a route: %q", got)
	}
}
