// SPDX-License-Identifier: Apache-2.0

//go:build !nodemo

package main

import (
	"context"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/demo"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

func newDemoCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the gateway against a built-in demo Dagu (works offline)",
		Long:  demo.Help,
	}
	profile := cmd.Flags().String(flagDaguProfile, string(fakedagu.ProfileCurrent),
		"Dagu release the demo Dagu imitates: "+strings.Join(fakedagu.ProfileNames(), ", "))
	port := cmd.Flags().Int(demo.DaguPortFlag, demo.DefaultDaguPort,
		"port of the demo Dagu on 127.0.0.1, the same on every start so the printed lines stay true; 0 picks a free one [env "+demo.DaguPortEnv+"]")
	for _, flag := range []string{flagDaguProfile, demo.DaguPortFlag} {
		config.SetGroup(cmd.Flags(), flag, config.GroupDemo)
	}
	return withConfig(cmd, env, config.ModeDemo, func(cmd *cobra.Command, cfg config.Config) error {
		p, err := fakedagu.ParseProfile(*profile)
		if err != nil {
			return err
		}
		daguPort, err := demo.DaguPort(cmd.Flags().Changed(demo.DaguPortFlag), *port, env.getenv(demo.DaguPortEnv))
		if err != nil {
			return err
		}
		return runDemo(cmd.Context(), cmd, cfg, env, p, daguPort)
	})
}

// flagDaguProfile selects the demo Dagu's release.
const flagDaguProfile = "dagu-profile"

// runDemo starts the embedded demo Dagu on daguPort of 127.0.0.1 and
// serves the gateway in front of it. The demo Dagu accepts the key given
// with --dagu-api-key (or DAGU_API_KEY), so other commands (doctor, stdio)
// can be pointed at its URL; without one it makes up a random key.
func runDemo(ctx context.Context, cmd *cobra.Command, cfg config.Config, env environment, profile fakedagu.Profile, daguPort int) error {
	key, keyGiven := cfg.DaguAPIKey, cfg.DaguAPIKey != ""
	if !keyGiven {
		var err error
		if key, err = demo.NewKey(); err != nil {
			return err
		}
	}
	upstream, upstreamURL, err := demo.StartDagu(key, profile, daguPort)
	if err != nil {
		return err
	}
	defer upstream.Close()
	cfg.DaguURL, cfg.DaguAPIKey, cfg.DaguAPIKeyFile = upstreamURL, key, ""
	listen, _ := config.Lookup(config.FlagListen)
	explicit := cmd.Flags().Changed(listen.Flag) || env.getenv(listen.Env) != ""
	ln, err := demo.Listen(cfg.Listen, explicit)
	if err != nil {
		return listenError(listen.Flag, cfg.Listen, err)
	}
	cfg.Listen = ln.Addr().String()
	tokens, err := cfg.InboundTokens()
	if err != nil {
		return err
	}
	b := demo.Banner{Listen: cfg.Listen, DaguURL: upstreamURL, Tokens: len(tokens) > 0, Command: demo.SelfCommand(os.Args[0])}
	if !keyGiven {
		b.Key = key
	}
	b.Print(env.stdout)
	return serveHTTP(ctx, cfg, processLogger(cfg, env), env.getenv, ln)
}
