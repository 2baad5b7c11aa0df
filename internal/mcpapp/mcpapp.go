// SPDX-License-Identifier: Apache-2.0

// Package mcpapp is the gateway's MCP App (the io.modelcontextprotocol/ui
// extension, SEP-1865): one self-contained HTML view, embedded in the
// binary, that a host renders next to a dagu_read result. The view draws a
// run (step graph, timeline), a log, a run or DAG list, or any other answer
// as plain data. It is read-only: every call it makes goes back through the
// host as an ordinary dagu_read tools/call, so the gateway's auth, access
// policy, limits and logs apply to it unchanged.
//
// The package owns the view's resource (URI, MIME type, bytes), the _meta
// that links dagu_read to it, and the extension capability the server
// declares; internal/mcpserver wires the three in.
package mcpapp

import (
	"context"
	_ "embed"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// URI is the view's resource. Its last segment is the view's version:
// hosts may cache a ui:// resource by URI, so every change of view.html
// bumps it (TestViewVersionIsBumped fails until it is).
const URI = "ui://dagu-mcp-gateway/view/v3"

// MIMEType is the MIME type of an MCP App's HTML.
const MIMEType = "text/html;profile=mcp-app"

// Extension is the capability key of MCP Apps under the server's
// capabilities.extensions.
const Extension = "io.modelcontextprotocol/ui"

// LegacyResourceURIKey is the flat _meta key hosts read before
// _meta.ui.resourceUri existed; Dagu's own server still sends it next to
// the nested form, and so does the gateway.
const LegacyResourceURIKey = "ui/resourceUri"

//go:embed view.html
var view string

// HTML is the view: one document with its styles and script inline, no
// external resource, so the host's default content security policy (no
// network, no remote scripts) is all it needs.
func HTML() string { return view }

// ToolMeta is the _meta of the dagu_read tool definition: the view that
// renders its results (nested, and under the deprecated flat key), visible
// to the model and callable from the view.
func ToolMeta() mcp.Meta {
	return mcp.Meta{
		"ui": map[string]any{
			"resourceUri": URI,
			"visibility":  []string{"model", "app"},
		},
		LegacyResourceURIKey: URI,
	}
}

// Capability is the server's io.modelcontextprotocol/ui extension entry:
// the MIME types of the views it serves.
func Capability() map[string]any {
	return map[string]any{"mimeTypes": []string{MIMEType}}
}

// resourceMeta asks the host for a border around the view: it draws its
// own background but no frame.
func resourceMeta() mcp.Meta {
	return mcp.Meta{"ui": map[string]any{"prefersBorder": true}}
}

// Register adds the view's resource to an MCP server: listed by
// resources/list and read whole by resources/read.
func Register(s *mcp.Server) {
	s.AddResource(&mcp.Resource{
		URI:         URI,
		Name:        "dagu_view",
		Title:       "Dagu view",
		Description: "Read-only view of dagu_read results for MCP Apps hosts: a run's step graph and timeline, logs, run and DAG lists.",
		MIMEType:    MIMEType,
		Meta:        resourceMeta(),
	}, read)
}

// cacheTTL is how long a client may keep the view (the ttlMs of its
// resources/read answer, public: it is the same for every caller). The
// view changes only with the binary, and a changed view has a new URI.
const cacheTTL = 24 * time.Hour

func read(_ context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{
		Contents:  []*mcp.ResourceContents{{URI: URI, MIMEType: MIMEType, Text: view, Meta: resourceMeta()}},
		Cacheable: mcp.Cacheable{TTLMs: int(cacheTTL.Milliseconds()), CacheScope: "public"},
	}, nil
}
