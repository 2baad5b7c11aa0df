// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// serviceName is the default OpenTelemetry service.name; OTEL_SERVICE_NAME
// and OTEL_RESOURCE_ATTRIBUTES override it.
const serviceName = "dagu-mcp-gateway"

// tracingShutdownTimeout bounds the final flush of buffered spans.
const tracingShutdownTimeout = 5 * time.Second

// tracingEnabled reports whether the standard OTEL_* environment asks for
// trace export: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER=otlp, unless
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER names another exporter
// (such as none).
func tracingEnabled(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	switch exporter := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))); exporter {
	case "otlp":
		return true
	case "":
	default:
		return false
	}
	return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) != "" ||
		strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) != ""
}

// startTracing installs the global tracer provider and the W3C trace
// context propagator when the environment turns tracing on (see
// tracingEnabled), exporting over OTLP HTTP/protobuf; the exporter, batch
// processor and sampler read their own OTEL_* variables. It returns what
// flushes and stops it. With tracing off nothing is installed: the global
// tracer stays a no-op and no trace context is sent upstream. Failures to
// set up or export are logged, never fatal.
func startTracing(log *slog.Logger) (stop func()) {
	if !tracingEnabled(os.Getenv) {
		return func() {}
	}
	if p := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") + os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL"); strings.Contains(p, "grpc") {
		log.Warn("tracing exports over OTLP http/protobuf only; the OTLP protocol setting is ignored", "protocol", p)
	}
	ctx := context.Background()
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		log.Error("tracing disabled: OTLP exporter", "err", err)
		return func() {}
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", serviceName), attribute.String("service.version", version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		log.Warn("tracing resource", "err", err) // res is still usable
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("tracing", "err", err) }))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	log.Info("tracing on: exporting spans over OTLP")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), tracingShutdownTimeout)
		defer cancel()
		if err := tp.Shutdown(ctx); err != nil {
			log.Warn("tracing shutdown", "err", err)
		}
		otel.SetTracerProvider(noop.NewTracerProvider())
		otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator())
	}
}
