// SPDX-License-Identifier: Apache-2.0

//go:build nodemo

package main

import "github.com/spf13/cobra"

// newDemoCommand, in a build without the demo, only says where to find it.
func newDemoCommand(env environment) *cobra.Command { return newDemoLeftOutCommand(env) }
