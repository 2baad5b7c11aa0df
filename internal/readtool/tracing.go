// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// OpenTelemetry for the MCP requests the tool answers: one SERVER span per
// tools/call and resources/read, named and attributed after the MCP
// semantic conventions, parented on the W3C trace context the client put in
// params._meta (internal/mcpserver times every MCP request). The spans use the global tracer provider and propagator: with tracing off
// they are no-ops. Attributes never carry tool arguments, results or
// credentials.

// tracerName is the instrumentation scope of the tool's spans.
const tracerName = "github.com/dagu-mcp-gateway/gateway/internal/readtool"

// Attribute keys of the MCP and GenAI semantic conventions.
const (
	attrMethod        = attribute.Key("mcp.method.name")
	attrToolName      = attribute.Key("gen_ai.tool.name")
	attrOperationName = attribute.Key("gen_ai.operation.name")
	attrResourceURI   = attribute.Key("mcp.resource.uri")
	attrErrorType     = attribute.Key("error.type")
	attrRPCStatusCode = attribute.Key("rpc.response.status_code")
)

// operation is one MCP request being traced.
type operation struct {
	span trace.Span
}

// startOperation starts the request span of method (for a tool call, tool
// is its name; for a resource read, uri is the resource) under the trace
// context found in meta, the request's params._meta.
func (t *Tool) startOperation(ctx context.Context, method, tool, uri string, meta map[string]any) (context.Context, *operation) {
	ctx = otel.GetTextMapPropagator().Extract(ctx, metaCarrier(meta))
	name := method
	attrs := []attribute.KeyValue{attrMethod.String(method)}
	if tool != "" {
		name += " " + tool
		attrs = append(attrs, attrToolName.String(tool), attrOperationName.String("execute_tool"))
	}
	if uri != "" {
		attrs = append(attrs, attrResourceURI.String(uri))
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, &operation{span: span}
}

// end records the outcome: code is the contract's error code ("" on
// success), rpcCode the JSON-RPC error code when the request failed with
// one (0 otherwise), message the agent-safe error message.
func (op *operation) end(code Code, rpcCode int64, message string) {
	if code != "" {
		op.span.SetAttributes(attrErrorType.String(string(code)))
		if rpcCode != 0 {
			op.span.SetAttributes(attrRPCStatusCode.String(strconv.FormatInt(rpcCode, 10)))
		}
		op.span.SetStatus(codes.Error, message)
	}
	op.span.End()
}

// tracedCall is Call inside a tools/call span.
func (t *Tool) tracedCall(ctx context.Context, meta map[string]any, args json.RawMessage) *mcp.CallToolResult {
	ctx, op := t.startOperation(ctx, methodToolCall, ToolName, "", meta)
	res := t.Call(ctx, args)
	var code Code
	var message string
	if res != nil && res.IsError {
		code, message = CodeInternalError, "tool error"
		if e, ok := res.StructuredContent.(*Error); ok {
			code, message = e.Code, e.Message
		}
	}
	op.end(code, 0, message)
	return res
}

// traceResource starts the resources/read span of req, points *ctx at it,
// and returns what ends it with the outcome *err holds by then (the
// handler's named error result).
func (t *Tool) traceResource(ctx *context.Context, req *mcp.ReadResourceRequest, err *error) func() {
	var uri string
	var meta map[string]any
	if req != nil && req.Params != nil {
		uri, meta = req.Params.URI, req.Params.GetMeta()
	}
	var op *operation
	*ctx, op = t.startOperation(*ctx, methodResourceRead, "", uri, meta)
	return func() {
		if *err == nil {
			op.end("", 0, "")
			return
		}
		code, rpcCode, message := resourceOutcome(*err)
		op.end(code, rpcCode, message)
	}
}

// ToolErrorCode is the contract's error code of a failed tools/call
// result (internal_error when it carries no error object).
func ToolErrorCode(res *mcp.CallToolResult) Code {
	if e, ok := res.StructuredContent.(*Error); ok {
		return e.Code
	}
	return CodeInternalError
}

// ResourceErrorCode is the contract's error code a resources/read error
// carries (internal_error when it carries none).
func ResourceErrorCode(err error) Code {
	code, _, _ := resourceOutcome(err)
	return code
}

// resourceOutcome reads the contract code back from a resources/read
// error: the JSON-RPC error's data is the contract's error object.
func resourceOutcome(err error) (Code, int64, string) {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		return CodeInternalError, 0, "internal error"
	}
	var data struct {
		Code Code `json:"code"`
	}
	if json.Unmarshal(rpcErr.Data, &data) != nil || data.Code == "" {
		data.Code = CodeInternalError
	}
	return data.Code, rpcErr.Code, rpcErr.Message
}

// callMeta is the params._meta of a tool call request, nil when absent.
func callMeta(req *mcp.CallToolRequest) map[string]any {
	if req == nil || req.Params == nil {
		return nil
	}
	return req.Params.GetMeta()
}

// metaCarrier reads propagation fields (traceparent, tracestate) from an
// MCP params._meta map, whose keys SEP-414 leaves unprefixed for them.
type metaCarrier map[string]any

// Get returns the string value of key, or "".
func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set is unused: the gateway only extracts from _meta.
func (m metaCarrier) Set(string, string) {}

// Keys lists the keys of the map.
func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
