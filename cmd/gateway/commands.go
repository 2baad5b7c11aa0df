// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"log/slog"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/instances"
	"github.com/dagu-mcp-gateway/gateway/internal/telemetry"
)

const rootLong = `dagu-mcp-gateway gives AI agents (any MCP client) safe, read-only access to a
Dagu workflow server through one MCP tool, dagu_read: DAGs and specs, runs,
run and step logs, foreach items, the wiki, search, and local Excel workbook
profiles. It calls Dagu's REST API with an API key and never starts, changes
or deletes anything.

Every setting can also be set with the environment variable named in its
flag's help; a flag on the command line wins over the environment, which wins
over the default. Each subcommand's --help lists its flags by purpose; the
source's docs/configuration.md describes every setting at length.`

func newRootCommand(env environment) *cobra.Command {
	root := &cobra.Command{
		Use:           "dagu-mcp-gateway",
		Short:         "Read-only MCP gateway for a Dagu workflow server",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionLine(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return config.ExplainFlagError(cmd.Name(), err) })
	root.SetIn(env.stdin)
	root.SetOut(env.stdout)
	root.SetErr(env.stderr)
	root.AddCommand(
		newServeCommand(env),
		newStdioCommand(env),
		newDemoCommand(env),
		newDoctorCommand(env),
		newVersionCommand(env),
		newHealthcheckCommand(env),
	)
	for _, sub := range root.Commands() {
		sub.SetUsageFunc(groupedUsage)
	}
	return root
}

// helpWidth is the column a subcommand's --help wraps at.
const helpWidth = 80

// groupedUsage writes a subcommand's usage: its command line, then its
// flags grouped by purpose (the settings table's groups), each flag's text
// wrapped to helpWidth.
func groupedUsage(cmd *cobra.Command) error {
	text := "Usage:\n  " + cmd.UseLine() + "\n"
	if cmd.HasAvailableFlags() {
		text += "\n" + config.FlagHelp(cmd.Flags(), helpWidth)
	}
	_, err := fmt.Fprint(cmd.OutOrStderr(), text)
	return err
}

// withConfig registers the flags of the settings mode uses on cmd and
// resolves and validates them before fn runs.
func withConfig(cmd *cobra.Command, env environment, mode config.Mode, fn func(cmd *cobra.Command, cfg config.Config) error) *cobra.Command {
	config.RegisterFlags(cmd.Flags(), mode)
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		cfg, err := config.Resolve(cmd.Flags(), env.getenv)
		if err == nil {
			err = cfg.Validate(mode, readTargets())
		}
		if err != nil {
			return fmt.Errorf("invalid configuration:\n%w", err)
		}
		applyGCPolicy(cfg.GCHeapFloor, env.getenv)
		if cmd.Flags().Lookup(config.FlagMemoryLimit) != nil {
			applyMemoryLimit(decideMemoryLimit(cfg, env.getenv), env.setMemoryLimit)
		}
		return fn(cmd, cfg)
	}
	return cmd
}

// processLogger installs the process logger of cfg, writing to the
// command's stderr with the configured secrets scrubbed.
func processLogger(cfg config.Config, env environment) *slog.Logger {
	return telemetry.InstallProcessLogger(cfg, daguKey(cfg), env.stderr)
}

func newServeCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve dagu_read over Streamable HTTP at POST /mcp",
		Long: `Serve the dagu_read tool over MCP Streamable HTTP at POST /mcp (stateless, JSON
responses: any replica can answer any request), with GET /healthz (process
alive), GET /readyz (Dagu reachable and the API key accepted) and GET /metrics
(Prometheus). Stops gracefully on SIGINT or SIGTERM.

Example:
  DAGU_URL=https://dagu.example.com DAGU_API_KEY_FILE=/run/secrets/dagu-key \
  GATEWAY_AUTH_TOKEN_FILE=/run/secrets/gateway-tokens \
  dagu-mcp-gateway serve --listen 0.0.0.0:8090

At start it logs the /mcp URL it serves, then the Dagu release it reached;
a Dagu that refuses the key is logged as an error (run "dagu-mcp-gateway
doctor" for what to do).`,
	}
	return withConfig(cmd, env, config.ModeServe, func(cmd *cobra.Command, cfg config.Config) error {
		return serveHTTP(cmd.Context(), cfg, processLogger(cfg, env), env.getenv, nil)
	})
}

func newStdioCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "stdio",
		Short: "Serve dagu_read over stdin/stdout for desktop MCP clients",
		Long: `Serve the dagu_read tool over MCP's stdio transport, for desktop clients such
as Claude Desktop that start the gateway as a subprocess. Logs go to stderr.

Example entry of Claude Desktop's claude_desktop_config.json (give "command"
the binary's absolute path: a desktop app may not search your shell's PATH):
  {"mcpServers": {"dagu": {
    "command": "/usr/local/bin/dagu-mcp-gateway", "args": ["stdio"],
    "env": {"DAGU_URL": "https://dagu.example.com",
            "DAGU_API_KEY_FILE": "/Users/me/.config/dagu-key"}}}}`,
	}
	instance := cmd.Flags().String(flagInstance, "", "with --instances: the instance to serve (default: the one named default)")
	config.SetGroup(cmd.Flags(), flagInstance, config.GroupDagu)
	return withConfig(cmd, env, config.ModeStdio, func(cmd *cobra.Command, cfg config.Config) error {
		picked, err := instances.Configs(cfg, *instance, false)
		if err != nil {
			return err
		}
		cfg = picked[0].Config
		return serveStdio(cmd.Context(), cfg, processLogger(cfg, env), env)
	})
}

func newDoctorCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the configured Dagu and report what it supports",
		Long: `Check that the configured Dagu answers and accepts the API key, detect which
REST routes it offers, and print which dagu_read targets work fully and which
degrade on this Dagu version. Exits 0 when Dagu is usable, 1 otherwise.`,
	}
	instance := cmd.Flags().String(flagInstance, "", "with --instances: the instance to check (default: every one)")
	config.SetGroup(cmd.Flags(), flagInstance, config.GroupDagu)
	return withConfig(cmd, env, config.ModeDoctor, func(cmd *cobra.Command, cfg config.Config) error {
		return runDoctor(cmd.Context(), cfg, *instance, env)
	})
}

// flagInstance picks one instance of --instances (stdio, doctor).
const flagInstance = "instance"

func newVersionCommand(env environment) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the gateway version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(env.stdout, versionLine())
			return err
		},
	}
}

// versionLine is what version and --version print.
func versionLine() string {
	return fmt.Sprintf("dagu-mcp-gateway %s (%s %s/%s)", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
