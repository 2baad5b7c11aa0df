// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// tracesPath is the OTLP/HTTP path of traces below a base endpoint.
const tracesPath = "v1/traces"

// exporterOptions turns the OTLP endpoint and header variables into
// exporter options, which take precedence over the SDK's own reading of
// the process environment. The traces-specific variable wins over the
// general one; the general endpoint is a base URL the traces path is
// appended to, as the OTLP specification says.
func exporterOptions(getenv func(string) string) []otlptracehttp.Option {
	var opts []otlptracehttp.Option
	if u := env(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); u != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(u))
	} else if base := env(getenv, "OTEL_EXPORTER_OTLP_ENDPOINT"); base != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(strings.TrimRight(base, "/")+"/"+tracesPath))
	}
	headers := parseKeyValues(env(getenv, "OTEL_EXPORTER_OTLP_HEADERS"))
	for k, v := range parseKeyValues(env(getenv, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")) {
		headers[k] = v
	}
	if len(headers) > 0 {
		opts = append(opts, otlptracehttp.WithHeaders(headers))
	}
	return opts
}

// resourceAttributes reads OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME,
// which wins for service.name.
func resourceAttributes(getenv func(string) string) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	for k, v := range parseKeyValues(env(getenv, "OTEL_RESOURCE_ATTRIBUTES")) {
		attrs = append(attrs, attribute.String(k, v))
	}
	if name := env(getenv, "OTEL_SERVICE_NAME"); name != "" {
		attrs = append(attrs, attribute.String("service.name", name))
	}
	return attrs
}

// parseKeyValues reads the OTEL list form "key1=value1,key2=value2" with
// percent-encoded values. Items without '=' or with an empty key are
// skipped; a value that does not decode is kept as written.
func parseKeyValues(s string) map[string]string {
	out := map[string]string{}
	if s == "" {
		return out
	}
	for item := range strings.SplitSeq(s, ",") {
		k, v, found := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !found || k == "" {
			continue
		}
		v = strings.TrimSpace(v)
		if decoded, err := url.PathUnescape(v); err == nil {
			v = decoded
		}
		out[k] = v
	}
	return out
}

// sampler reads OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG; nil when
// none is set, which keeps the SDK default (parentbased_always_on).
func sampler(getenv func(string) string) (sdktrace.Sampler, error) {
	name := strings.ToLower(env(getenv, "OTEL_TRACES_SAMPLER"))
	arg := env(getenv, "OTEL_TRACES_SAMPLER_ARG")
	switch name {
	case "":
		return nil, nil
	case "always_on":
		return sdktrace.AlwaysSample(), nil
	case "always_off":
		return sdktrace.NeverSample(), nil
	case "traceidratio":
		ratio, err := samplerRatio(arg)
		return sdktrace.TraceIDRatioBased(ratio), err
	case "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample()), nil
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample()), nil
	case "parentbased_traceidratio":
		ratio, err := samplerRatio(arg)
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio)), err
	}
	return nil, fmt.Errorf("OTEL_TRACES_SAMPLER %q is not supported", name)
}

// samplerRatio reads the ratio argument: 1 when absent, a number from 0
// to 1 otherwise.
func samplerRatio(arg string) (float64, error) {
	if arg == "" {
		return 1, nil
	}
	v, err := strconv.ParseFloat(arg, 64)
	if err != nil || v < 0 || v > 1 {
		return 1, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG %q is not a ratio from 0 to 1", arg)
	}
	return v, nil
}
