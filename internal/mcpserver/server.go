// SPDX-License-Identifier: Apache-2.0

// Package mcpserver is the MCP server around the dagu_read tool: its
// identity, instructions and capabilities, the receiving middleware that
// times every MCP method (mcp.server.operation.duration), the prompts, and
// the MCP App view linked from the tool (internal/mcpapp). The contract
// itself (the tool, its resources and errors) is internal/readtool's; this
// package only registers it.
package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/mcpapp"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
)

// serverInstructions is what the initialize result tells an agent to start
// with.
var serverInstructions = instructionsWithout(nil)

// instructionsLead is the instructions' first sentence.
const instructionsLead = `This server gives read-only access to a Dagu workflow server through the dagu_read tool.`

// New is the MCP server of the gateway's build version: the operation
// histogram (registered on reg; nil disables it) times every request, and
// the tool with its resources, its view and the prompts are registered.
func New(version string, tool *readtool.Tool, reg prometheus.Registerer) (*mcp.Server, error) {
	ops, err := newOperations(reg)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "dagu-mcp-gateway", Title: "Dagu (read-only)", Version: version},
		&mcp.ServerOptions{Instructions: serverInstructions, Capabilities: serverCapabilities(), SetCacheable: cacheHints(tool)})
	s.AddReceivingMiddleware(ops.middleware, narrowServer(tool))
	tool.Register(s, mcpapp.ToolMeta())
	mcpapp.Register(s)
	RegisterPrompts(s)
	return s, nil
}

// cacheHints decides the cache hints (ttlMs, cacheScope) of MCP
// 2026-07-28 results: a resources/read answer keeps the hints the tool
// gave it (private for a caller's Dagu data); the lists and
// server/discover get the tool's ListHints for the caller instead of the
// SDK's default (public, stale at once).
func cacheHints(tool *readtool.Tool) func(context.Context, mcp.Request, *mcp.Cacheable) {
	return func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) {
		if _, read := req.(*mcp.ReadResourceRequest); read {
			return
		}
		*c = tool.ListHints(ctx)
	}
}

// serverCapabilities is what the gateway advertises in its initialize
// result: tools, resources and prompts, none with listChanged, and the MCP
// Apps extension (io.modelcontextprotocol/ui) with the MIME type of the
// view dagu_read links to; a host without it ignores both. The go-sdk
// would infer {"listChanged":true} for each feature registered, but the
// HTTP transport is stateless (no session outlives a request, so no
// notification can ever be sent) and the lists never change while the
// process runs. Logging, which the SDK advertises by default, is left out:
// the gateway sends no log messages to clients.
func serverCapabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{
		Tools:     &mcp.ToolCapabilities{ListChanged: false},
		Resources: &mcp.ResourceCapabilities{ListChanged: false},
		Prompts:   &mcp.PromptCapabilities{ListChanged: false},
		Extensions: map[string]any{
			mcpapp.Extension: mcpapp.Capability(),
		},
	}
}
