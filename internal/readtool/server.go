// SPDX-License-Identifier: Apache-2.0

package readtool

import "github.com/modelcontextprotocol/go-sdk/mcp"

// serverInstructions is what the initialize result tells an agent to start
// with.
const serverInstructions = `This server gives read-only access to a Dagu workflow server through the dagu_read tool. ` +
	`Start with {"target":"reference","name":"read-tool"} for the full guide, ` +
	`{"target":"dags"} to list workflows, or {"target":"runs","query":"status=2"} to find failed runs.`

// NewServer is the MCP server the tool registers on: its name, title and
// version (the gateway's build), its instructions and its capabilities.
func NewServer(version string) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "dagu-mcp-gateway", Title: "Dagu (read-only)", Version: version},
		&mcp.ServerOptions{Instructions: serverInstructions, Capabilities: serverCapabilities()})
}

// serverCapabilities is what the gateway advertises in its initialize
// result: tools, resources and prompts, none with listChanged. The go-sdk
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
	}
}
