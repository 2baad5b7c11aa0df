// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servedMethods are the MCP request methods the server answers; each is its
// own mcp_method_name label value, anything else is "other", so a client
// cannot grow the label set.
var servedMethods = map[string]bool{
	"initialize": true, "server/discover": true, "ping": true,
	"tools/list": true, methodToolCall: true,
	"resources/list": true, "resources/templates/list": true, methodResourceRead: true,
	"prompts/list": true, "prompts/get": true,
	"completion/complete": true, "logging/setLevel": true,
}

// operationMetrics is the server's receiving middleware: it records
// mcp.server.operation.duration for every MCP request method served, not
// only tool calls and resource reads. Notifications are not requests and
// are not timed.
func (t *Tool) operationMetrics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		label, tool := method, ""
		if !servedMethods[method] {
			label = "other"
		}
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == methodToolCall && p.Name == ToolName {
			tool = ToolName
		}
		t.metrics.observeOperation(label, tool, operationErrorType(method, res, err), time.Since(start))
		return res, err
	}
}

// operationErrorType is the error.type of a request: the contract's error
// code for a failed read (a tool error or a resources/read error carrying
// it), the JSON-RPC error code otherwise, "" on success.
func operationErrorType(method string, res mcp.Result, err error) string {
	if err == nil {
		if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			if e, ok := r.StructuredContent.(*Error); ok {
				return string(e.Code)
			}
			return string(CodeInternalError)
		}
		return ""
	}
	if method == methodResourceRead {
		code, _, _ := resourceOutcome(err)
		return string(code)
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return strconv.FormatInt(rpcErr.Code, 10)
	}
	return "_OTHER"
}
