// SPDX-License-Identifier: Apache-2.0

package telemetry

import (
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// getenvOf reads variables from a map, as the injected environment does.
func getenvOf(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func TestTracingEnabled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"nothing set", nil, false},
		{"endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{"traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{"otlp exporter named", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{"exporter none", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{"sdk disabled", map[string]string{"OTEL_SDK_DISABLED": "TRUE", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{"sdk not disabled", map[string]string{"OTEL_SDK_DISABLED": "false", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{"blank endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": " "}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := TracingEnabled(getenvOf(tc.env)); got != tc.want {
				t.Errorf("TracingEnabled = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseKeyValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want map[string]string
	}{
		{"", map[string]string{}},
		{"a=1,b=2", map[string]string{"a": "1", "b": "2"}},
		{" a = x%20y , novalue, =empty-key", map[string]string{"a": "x y"}},
		{"k=%zz", map[string]string{"k": "%zz"}},
		{"k=a=b", map[string]string{"k": "a=b"}},
	}
	for _, tt := range tests {
		if got := parseKeyValues(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseKeyValues(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseKeyValues(f *testing.F) {
	for _, s := range []string{"", "a=1,b=2", "k=%zz", ",,=,", "x=%41%42"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := range parseKeyValues(s) {
			if k == "" || k != strings.TrimSpace(k) || strings.ContainsAny(k, ",=") {
				t.Fatalf("key %q from %q", k, s)
			}
		}
	})
}

func TestResourceAttributes(t *testing.T) {
	t.Parallel()
	got := resourceAttributes(getenvOf(map[string]string{
		"OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attrs",
		"OTEL_SERVICE_NAME":        "from-name",
	}))
	// The later attribute wins in a resource, so the service name goes last.
	want := []attribute.KeyValue{attribute.String("service.name", "from-attrs"), attribute.String("service.name", "from-name")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("attributes %v, want %v", got, want)
	}
}

func TestSampler(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, arg string
		want      string // the sampler's description; "" for none
		wantErr   bool
	}{
		{"", "", "", false},
		{"always_on", "", "AlwaysOnSampler", false},
		{"ALWAYS_OFF", "", "AlwaysOffSampler", false},
		{"traceidratio", "0.25", "TraceIDRatioBased{0.25}", false},
		{"traceidratio", "2", "TraceIDRatioBased{1}", true},
		{"parentbased_always_on", "", "ParentBased{root:AlwaysOnSampler", false},
		{"parentbased_traceidratio", "", "ParentBased{root:TraceIDRatioBased{1}", false},
		{"jaeger_remote", "", "", true},
	}
	for _, tt := range tests {
		s, err := sampler(getenvOf(map[string]string{"OTEL_TRACES_SAMPLER": tt.name, "OTEL_TRACES_SAMPLER_ARG": tt.arg}))
		if (err != nil) != tt.wantErr {
			t.Errorf("%s(%s): error %v", tt.name, tt.arg, err)
		}
		desc := ""
		if s != nil {
			desc = s.Description()
		}
		if !strings.HasPrefix(desc, tt.want) || (tt.want == "") != (desc == "") {
			t.Errorf("%s(%s): sampler %q, want %q", tt.name, tt.arg, desc, tt.want)
		}
	}
}

func TestExporterOptionsFollowTheInjectedEnvironment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want int
	}{
		{nil, 0},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318/"}, 1},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c/v1/traces", "OTEL_EXPORTER_OTLP_HEADERS": "a=b"}, 2},
	}
	for _, tt := range tests {
		if got := len(exporterOptions(getenvOf(tt.env))); got != tt.want {
			t.Errorf("%v: %d options, want %d", tt.env, got, tt.want)
		}
	}
}
