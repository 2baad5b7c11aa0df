// SPDX-License-Identifier: Apache-2.0

package main

import "github.com/spf13/cobra"

// addInstanceFlag registers --instance, the instance of --instances that
// stdio serves or doctor checks (instances.Configs resolves it).
func addInstanceFlag(cmd *cobra.Command, what string) *string {
	return cmd.Flags().String("instance", "", "with --instances: the instance "+what)
}
