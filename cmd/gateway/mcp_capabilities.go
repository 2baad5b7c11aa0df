// SPDX-License-Identifier: Apache-2.0

package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

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
