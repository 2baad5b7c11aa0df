// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"context"
	"log/slog"
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

// TracingEnabled reports whether the standard OTEL_* environment asks for
// trace export: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER=otlp, unless
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER names another exporter
// (such as none).
func TracingEnabled(getenv func(string) string) bool {
	if strings.EqualFold(env(getenv, "OTEL_SDK_DISABLED"), "true") {
		return false
	}
	switch exporter := strings.ToLower(env(getenv, "OTEL_TRACES_EXPORTER")); exporter {
	case "otlp":
		return true
	case "":
	default:
		return false
	}
	return env(getenv, "OTEL_EXPORTER_OTLP_ENDPOINT") != "" || env(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// StartTracing installs the global tracer provider and the W3C trace
// context propagator when getenv turns tracing on (see TracingEnabled),
// exporting over OTLP HTTP/protobuf. The endpoint, headers, sampler and
// resource come from the OTEL_* variables read through getenv (see
// exporterOptions, sampler, resourceAttributes); the OTel SDK itself reads
// only what the gateway does not set: the batch processor's OTEL_BSP_* and
// the exporter's timeout, compression and certificate variables. version
// becomes service.version. It returns what flushes and stops tracing. With
// tracing off nothing is installed: the global tracer stays a no-op and no
// trace context is sent upstream. Failures to set up or export are logged,
// never fatal.
func StartTracing(log *slog.Logger, getenv func(string) string, version string) (stop func()) {
	if !TracingEnabled(getenv) {
		return func() {}
	}
	if p := env(getenv, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") + env(getenv, "OTEL_EXPORTER_OTLP_PROTOCOL"); strings.Contains(p, "grpc") {
		log.Warn("tracing exports over OTLP http/protobuf only; the OTLP protocol setting is ignored", "protocol", p)
	}
	ctx := context.Background()
	exporter, err := otlptracehttp.New(ctx, exporterOptions(getenv)...)
	if err != nil {
		log.Error("tracing disabled: OTLP exporter", "err", err)
		return func() {}
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", serviceName), attribute.String("service.version", version)),
		resource.WithAttributes(resourceAttributes(getenv)...), resource.WithTelemetrySDK())
	if err != nil {
		log.Warn("tracing resource", "err", err) // res is still usable
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithBatcher(exporter), sdktrace.WithResource(res)}
	s, err := sampler(getenv)
	if err != nil {
		log.Warn("tracing sampler", "err", err) // s is the fallback, or nil for the default
	}
	if s != nil {
		opts = append(opts, sdktrace.WithSampler(s))
	}
	tp := sdktrace.NewTracerProvider(opts...)
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

// env reads one variable through getenv, trimmed.
func env(getenv func(string) string, name string) string {
	return strings.TrimSpace(getenv(name))
}
