// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/promreg"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// MCP methods whose failures carry a contract error code.
const (
	methodToolCall     = "tools/call"
	methodResourceRead = "resources/read"
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

// operations is the MCP semantic conventions' mcp.server.operation.duration
// under its Prometheus name; error_type is the contract's error code of a
// failed read, the JSON-RPC code of another failure, "" on success. Label
// values come from fixed sets, never from caller input.
type operations struct {
	duration *prometheus.HistogramVec
}

func newOperations(reg prometheus.Registerer) (*operations, error) {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "mcp_server_operation_duration_seconds",
		Help: "MCP request duration as observed on the server (mcp.server.operation.duration), by method, tool and error type, for every request method served.",
		// The bucket boundaries the MCP semantic conventions advise.
		Buckets: []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300},
	}, []string{"mcp_method_name", "gen_ai_tool_name", "error_type"})
	// Two servers on one registry (one per Dagu instance) share the
	// histogram.
	h, err := promreg.Shared(reg, h)
	if err != nil {
		return nil, err
	}
	return &operations{duration: h}, nil
}

// middleware is the server's receiving middleware: it times every MCP
// request method served, not only tool calls and resource reads.
// Notifications are not requests and are not timed.
func (o *operations) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		start := time.Now()
		ctx, stop := reqctx.BindRevocation(ctx) // a revoked token's request ends here too
		defer stop()
		res, err := next(ctx, method, req)
		label, tool := method, ""
		if !servedMethods[method] {
			label = "other"
		}
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == methodToolCall && p.Name == readtool.ToolName {
			tool = readtool.ToolName
		}
		o.duration.WithLabelValues(label, tool, errorType(method, res, err)).Observe(time.Since(start).Seconds())
		return res, err
	}
}

// errorType is the error.type of a request: the contract's error code for
// a failed read (a tool error or a resources/read error carrying it), the
// JSON-RPC error code otherwise, "" on success.
func errorType(method string, res mcp.Result, err error) string {
	if err == nil {
		if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			return string(readtool.ToolErrorCode(r))
		}
		return ""
	}
	if method == methodResourceRead {
		return string(readtool.ResourceErrorCode(err))
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return strconv.FormatInt(rpcErr.Code, 10)
	}
	return "_OTHER"
}
