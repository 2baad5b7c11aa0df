// SPDX-License-Identifier: Apache-2.0

package main

import "github.com/dagu-mcp-gateway/gateway/internal/readtool"

// readTargets lists the dagu_read targets, which --disable-target may name.
func readTargets() []string { return readtool.TargetNames() }
