// SPDX-License-Identifier: Apache-2.0

package main

import "github.com/dagu-mcp-gateway/gateway/internal/readtool"

// readTargets lists the dagu_read targets, which --disable-target may name:
// the target enum of the tool's input schema.
func readTargets() []string {
	return readtool.Definition().InputSchema.(map[string]any)["properties"].(map[string]any)["target"].(map[string]any)["enum"].([]string)
}
