// SPDX-License-Identifier: Apache-2.0

// Package model holds the dagu_read contract's data models (the `data` object of
// a successful tool result) and the typed request parameters the read tool
// passes to its upstream.
//
// These types are what an MCP client sees; they never mirror Dagu's REST
// schemas. The mapping package converts REST responses into them, and the
// readtool package serialises them. JSON field names follow the contract
// (Dagu's spec 021, "MCP Read Tool", published with Dagu at
// https://github.com/dagucloud/dagu) exactly; fields the contract marks
// "once recorded" or "when present" use omitempty.
package model
