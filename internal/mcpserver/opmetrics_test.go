// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// TestOperationHistogram (issue 21, row "Metrics and access log"): the MCP
// operation histogram counts every request method served, not only
// tools/call and resources/read; a failed read is labelled with the
// contract's error code, a tool call with the tool's name.
func TestOperationHistogram(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	s := session(t, reg)
	ctx := context.Background()
	steps := []func() error{
		func() error { _, err := s.ListTools(ctx, nil); return err },
		func() error { _, err := s.ListPrompts(ctx, nil); return err },
		func() error {
			_, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "recent_failures"})
			return err
		},
		func() error { _, err := s.ListResources(ctx, nil); return err },
		func() error { _, err := s.ListResourceTemplates(ctx, nil); return err },
		func() error {
			_, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://reference/read-tool"})
			return err
		},
		func() error {
			_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: readtool.ToolName, Arguments: json.RawMessage(`{"target":"dags"}`)})
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://dags"}); err == nil {
		t.Fatal("a read of an unsupported upstream succeeded")
	}
	counts := operationCounts(t, reg)
	// The client opens with initialize or, on the newer protocol revision,
	// server/discover.
	counts["initialize||"] += counts["server/discover||"]
	for _, key := range []string{"initialize||", "tools/list||", "prompts/list||", "prompts/get||", "resources/list||",
		"resources/templates/list||", "resources/read||", "resources/read||resource_unavailable",
		"tools/call|dagu_read|resource_unavailable"} {
		if counts[key] != 1 {
			t.Errorf("mcp_server_operation_duration_seconds{%s} counted %d requests, want 1 (all: %v)", key, counts[key], counts)
		}
	}
}

// TestServersShareTheHistogram: two servers on one registry (one per Dagu
// instance) count into one histogram.
func TestServersShareTheHistogram(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	for range 2 {
		s := session(t, reg)
		if _, err := s.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := operationCounts(t, reg)["tools/list||"]; got != 2 {
		t.Fatalf("tools/list counted %d times, want 2", got)
	}
}

// operationCounts is the histogram's sample count by
// "method|tool|error_type".
func operationCounts(t *testing.T, reg *prometheus.Registry) map[string]uint64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]uint64{}
	for _, f := range families {
		if f.GetName() != "mcp_server_operation_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			counts[labels["mcp_method_name"]+"|"+labels["gen_ai_tool_name"]+"|"+labels["error_type"]] += m.GetHistogram().GetSampleCount()
		}
	}
	return counts
}
