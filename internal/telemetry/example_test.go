// SPDX-License-Identifier: Apache-2.0

package telemetry_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

// The process logger removes the configured secrets and anything shaped
// like a Dagu key from every line.
func ExampleNewLogger() {
	var out bytes.Buffer
	log := telemetry.NewLogger(&out, telemetry.LogOptions{
		Level: "info", Format: "json",
		Secrets: func() []string { return []string{"inbound-token-0123456789"} },
	})
	log.Info("refused", "token", "inbound-token-0123456789", "key", "dagu_0123456789abcdef")
	var line map[string]any
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		panic(err)
	}
	fmt.Println(line["level"], line["msg"], line["token"], line["key"])
	// Output:
	// INFO refused [REDACTED] [REDACTED]
}

// Tracing stays off, and installs nothing, unless the OTEL_* environment
// asks for an OTLP exporter.
func ExampleTracingEnabled() {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}
	fmt.Println(telemetry.TracingEnabled(func(string) string { return "" }))
	fmt.Println(telemetry.TracingEnabled(func(name string) string { return env[name] }))
	// Output:
	// false
	// true
}
