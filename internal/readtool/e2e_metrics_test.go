// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// TestMetricsAndAccessLog (issue 21, row "Metrics and access log"): the
// tool's own metrics carry the dagu_gateway_ prefix with buckets up to the
// call timeout, the access log has duration_ms in milliseconds, and a
// resource read is logged as one. (The MCP operation histogram of every
// method is internal/mcpserver's, tested there.)
func TestMetricsAndAccessLog(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	var logs testkit.LogBuffer
	h := newHarnessWith(t, fakedagu.Options{RecordedOnly: true},
		restclient.Config{Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second},
		func(o *readtool.Options) {
			o.Registerer, o.CallTimeout = reg, 30*time.Second
			o.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		})
	ctx := context.Background()
	if _, err := h.session.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := h.session.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := h.session.ListResourceTemplates(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := h.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://reference/read-tool"}); err != nil {
		t.Fatal(err)
	}
	h.call(t, `{"target":"dag","name":"failing_job"}`)

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range families {
		byName[f.GetName()] = f
	}
	for _, gone := range []string{"dagu_read_calls_total", "dagu_read_duration_seconds"} {
		if byName[gone] != nil {
			t.Errorf("%s is still exported", gone)
		}
	}
	if byName["dagu_gateway_read_calls_total"] == nil {
		t.Fatal("dagu_gateway_read_calls_total is missing")
	}
	hist := byName["dagu_gateway_read_duration_seconds"].GetMetric()[0].GetHistogram()
	buckets := hist.GetBucket()
	if last := buckets[len(buckets)-1].GetUpperBound(); last != 30 {
		t.Errorf("the last read-duration bucket is %v s, want the call timeout (30 s)", last)
	}

	var resourceLine, toolLine map[string]any
	for _, line := range logs.JSONLines(t) {
		switch line["method"] {
		case "resources/read":
			resourceLine = line
		case "tools/call":
			toolLine = line
		}
	}
	if resourceLine["msg"] != "mcp.resource_read.succeeded" || toolLine["msg"] != "mcp.tool_call.succeeded" {
		t.Errorf("events: resource read %v, tool call %v", resourceLine["msg"], toolLine["msg"])
	}
	for _, line := range []map[string]any{resourceLine, toolLine} {
		ms, ok := line["duration_ms"].(float64)
		if _, old := line["duration"]; old || !ok || ms < 0 || ms > 30_000 {
			t.Errorf("access line durations: duration_ms %v, duration %v", line["duration_ms"], line["duration"])
		}
	}
}
