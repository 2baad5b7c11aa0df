// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/healthcheck"
)

// flagHealthTimeout bounds one healthcheck probe. It has no environment
// variable: container runtimes pass it on the command line if at all.
const flagHealthTimeout = "timeout"

func newHealthcheckCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Probe the local gateway's /healthz; exit 0 when healthy, 1 otherwise",
		Long:  healthcheck.Help,
		Args:  cobra.NoArgs,
	}
	fs := cmd.Flags()
	config.RegisterFlags(fs, config.ModeHealthcheck)
	fs.Lookup(config.FlagListen).Usage = "host:port the gateway listens on; an unspecified host is probed on loopback" + config.EnvNote(config.FlagListen)
	fs.Duration(flagHealthTimeout, healthcheck.DefaultTimeout, "time limit for the whole probe")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		// The same flag > environment > default resolution as every
		// other setting, limited to the one setting the probe needs.
		cfg, resolveErr := config.Resolve(cmd.Flags(), env.getenv)
		timeout, err := cmd.Flags().GetDuration(flagHealthTimeout)
		if err = errors.Join(resolveErr, err); err == nil {
			err = healthcheck.Probe(cmd.Context(), cfg.Listen, timeout)
		}
		if err != nil {
			// Docker reserves exit status 2, so every failure is 1.
			fmt.Fprintln(env.stderr, "dagu-mcp-gateway healthcheck: unhealthy:", err)
			return exitError{code: 1}
		}
		_, err = fmt.Fprintln(env.stdout, "ok")
		return err
	}
	return cmd
}
