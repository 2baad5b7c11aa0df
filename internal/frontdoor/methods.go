// SPDX-License-Identifier: Apache-2.0

package frontdoor

import "net/http"

// MCP protocol revisions the front door tells apart.
const (
	// protocol20250326 is the revision a request without an
	// MCP-Protocol-Version header is taken to speak (the header came with
	// 2025-06-18): the last one with JSON-RPC batches.
	protocol20250326 = "2025-03-26"
	// protocol20260728 is the first revision without the initialize
	// handshake, whose HTTP rules give each JSON-RPC error its own status
	// (SEP-2575: 404 for an unknown method, 400 for invalid params).
	protocol20260728 = "2026-07-28"
)

// headerProtocolVersion is the HTTP header of the revision a request
// speaks.
const headerProtocolVersion = "Mcp-Protocol-Version"

// protocolOf is the revision r speaks as the go-sdk reads it: its
// MCP-Protocol-Version header, 2025-03-26 without one.
func protocolOf(r *http.Request) string {
	if v := r.Header.Get(headerProtocolVersion); v != "" {
		return v
	}
	return protocol20250326
}

// modernProtocol reports whether version is 2026-07-28 or later (revisions
// are dates, so they order as strings).
func modernProtocol(version string) bool { return version >= protocol20260728 }

// methodRule is how the MCP server takes one JSON-RPC method.
type methodRule struct {
	notification   bool // a notification: never carries an ID
	paramsOptional bool // may come without params
}

// mcpMethods are the methods the go-sdk's server takes from a client, as
// its own table has them (TestMethodTableMatchesTheSDK pins the two
// together): any other method is answered -32601 before it reaches the
// SDK, which would answer it with a plain-text 400 in every revision
// before 2026-07-28. A method the SDK takes but the gateway does not serve
// (completion/complete, resources/subscribe) is left to the SDK, whose own
// -32601 is already JSON.
var mcpMethods = map[string]methodRule{
	"completion/complete":              {},
	"server/discover":                  {paramsOptional: true},
	"initialize":                       {},
	"ping":                             {paramsOptional: true},
	"prompts/list":                     {paramsOptional: true},
	"prompts/get":                      {},
	"tools/list":                       {paramsOptional: true},
	"tools/call":                       {},
	"resources/list":                   {paramsOptional: true},
	"resources/templates/list":         {paramsOptional: true},
	"resources/read":                   {},
	"logging/setLevel":                 {},
	"resources/subscribe":              {},
	"resources/unsubscribe":            {},
	"subscriptions/listen":             {},
	"notifications/cancelled":          {notification: true, paramsOptional: true},
	"notifications/initialized":        {notification: true, paramsOptional: true},
	"notifications/roots/list_changed": {notification: true, paramsOptional: true},
	"notifications/progress":           {notification: true},
}
