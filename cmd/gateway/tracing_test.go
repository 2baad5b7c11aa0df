// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// collector is an in-process OTLP/HTTP trace receiver.
type collector struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
		http.NotFound(w, r)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	var req collectortrace.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			c.spans = append(c.spans, ss.GetSpans()...)
		}
	}
	c.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (c *collector) all() []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*tracepb.Span(nil), c.spans...)
}

func attrs(s *tracepb.Span) map[string]string {
	out := map[string]string{}
	for _, kv := range s.GetAttributes() {
		out[kv.GetKey()] = kv.GetValue().GetStringValue()
	}
	return out
}

// traceparentFor is a sampled W3C traceparent of a client span.
func traceparentFor(traceID, spanID string) string { return "00-" + traceID + "-" + spanID + "-01" }

// TestTracingExportsRequestAndUpstreamSpans runs serve with the OTEL_*
// environment pointing at an in-process collector and checks, per MCP
// request: the server span continues the client's traceparent from _meta
// and carries the MCP attributes, each upstream REST call is its child,
// Dagu receives the trace context, no secret is in any span, and the MCP
// duration histogram is on /metrics. It is not parallel: tracing installs
// the process-wide tracer provider and propagator.
func TestTracingExportsRequestAndUpstreamSpans(t *testing.T) {
	col := &collector{}
	colSrv := httptest.NewServer(col)
	defer colSrv.Close()
	// Through the injected environment only: the process environment
	// stays untouched.
	getenv := mapEnv(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": colSrv.URL, "OTEL_TRACES_SAMPLER": "parentbased_always_on"})

	fake, daguURL := fakedagutest.Start(t, fakedagu.Options{RecordedOnly: true, APIKey: fakedagutest.APIKey})
	// Caches off: every read below must reach Dagu to be traced there.
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey, "--auth-token", goodToken,
		"--run-cache-size", "0", "--list-cache-ttl", "0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, stop := serveConfigStoppable(t, cfg, getenv)
	cs := connectHTTP(t, base+"/mcp", goodToken)

	type request struct {
		name, traceID, parentID string
		do                      func(meta mcp.Meta) (errorType string)
		wantSpan                string
		wantAttrs               map[string]string
		wantUpstream            bool
	}
	callTool := func(args string) func(mcp.Meta) string {
		return func(meta mcp.Meta) string {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Meta: meta, Name: "dagu_read", Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError {
				return ""
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var e struct{ Code string }
			_ = json.Unmarshal(raw, &e)
			return e.Code
		}
	}
	requests := []request{
		{name: "tool call", traceID: "4bf92f3577b34da6a3ce929d0e0e4736", parentID: "00f067aa0ba902b7",
			do: callTool(`{"target":"dags"}`), wantSpan: "tools/call dagu_read", wantUpstream: true,
			wantAttrs: map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "dagu_read", "gen_ai.operation.name": "execute_tool"}},
		{name: "failing tool call", traceID: "5bf92f3577b34da6a3ce929d0e0e4736", parentID: "10f067aa0ba902b7",
			do: callTool(`{"target":"dag_spec","name":"no_such_dag_anywhere"}`), wantSpan: "tools/call dagu_read", wantUpstream: true,
			wantAttrs: map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "dagu_read"}},
		{name: "resource read", traceID: "6bf92f3577b34da6a3ce929d0e0e4736", parentID: "20f067aa0ba902b7",
			do: func(meta mcp.Meta) string {
				if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{Meta: meta, URI: "dagu://dags"}); err != nil {
					t.Fatal(err)
				}
				return ""
			},
			wantSpan: "resources/read", wantUpstream: true,
			wantAttrs: map[string]string{"mcp.method.name": "resources/read", "mcp.resource.uri": "dagu://dags"}},
	}
	errorTypes := make([]string, len(requests))
	for i, r := range requests {
		errorTypes[i] = r.do(mcp.Meta{"traceparent": traceparentFor(r.traceID, r.parentID)})
	}
	if errorTypes[1] == "" {
		t.Fatal("the failing tool call succeeded")
	}
	metricsText := scrape(t, base+"/metrics")
	stop() // flushes the tracer provider
	spans := col.all()
	t.Logf("the collector received %d spans", len(spans))

	for i, r := range requests {
		t.Run(r.name, func(t *testing.T) {
			var server *tracepb.Span
			var upstream []*tracepb.Span
			for _, s := range spans {
				if hex.EncodeToString(s.GetTraceId()) != r.traceID {
					continue
				}
				switch s.GetKind() {
				case tracepb.Span_SPAN_KIND_SERVER:
					server = s
				case tracepb.Span_SPAN_KIND_CLIENT:
					upstream = append(upstream, s)
				}
			}
			if server == nil {
				t.Fatalf("no server span in trace %s among %d spans", r.traceID, len(spans))
			}
			if server.GetName() != r.wantSpan || hex.EncodeToString(server.GetParentSpanId()) != r.parentID {
				t.Errorf("server span %q parent %x, want %q parent %s", server.GetName(), server.GetParentSpanId(), r.wantSpan, r.parentID)
			}
			got := attrs(server)
			for k, v := range r.wantAttrs {
				if got[k] != v {
					t.Errorf("attribute %s = %q, want %q", k, got[k], v)
				}
			}
			if got["error.type"] != errorTypes[i] {
				t.Errorf("error.type = %q, want %q", got["error.type"], errorTypes[i])
			}
			if errorTypes[i] != "" && server.GetStatus().GetCode() != tracepb.Status_STATUS_CODE_ERROR {
				t.Errorf("failed request has status %v", server.GetStatus())
			}
			if r.wantUpstream && len(upstream) == 0 {
				t.Fatal("no upstream client span")
			}
			for _, u := range upstream {
				if !bytes.Equal(u.GetParentSpanId(), server.GetSpanId()) {
					t.Errorf("upstream span %q parent %x, want the server span %x", u.GetName(), u.GetParentSpanId(), server.GetSpanId())
				}
				if !strings.HasPrefix(u.GetName(), "GET /") {
					t.Errorf("upstream span name %q is not GET {route}", u.GetName())
				}
			}
			propagated := false
			for _, req := range fake.Requests() {
				if strings.Contains(req.Header.Get("Traceparent"), "-"+r.traceID+"-") {
					propagated = true
				}
			}
			if !propagated {
				t.Error("Dagu received no traceparent of the trace")
			}
			label := `error_type="` + errorTypes[i] + `",gen_ai_tool_name="` + r.wantAttrs["gen_ai.tool.name"] + `",mcp_method_name="` + r.wantAttrs["mcp.method.name"] + `"`
			if !strings.Contains(metricsText, "mcp_server_operation_duration_seconds_count{"+label+"} 1") {
				t.Errorf("/metrics lacks mcp_server_operation_duration_seconds{%s}", label)
			}
		})
	}
	for _, s := range spans {
		for _, kv := range s.GetAttributes() {
			if v := kv.GetValue().String(); strings.Contains(v, fakedagutest.APIKey) || strings.Contains(v, goodToken) {
				t.Errorf("span %q attribute %s carries a secret", s.GetName(), kv.GetKey())
			}
		}
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+goodToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics answered %d", res.StatusCode)
	}
	return string(body)
}
