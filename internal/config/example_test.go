// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// A subcommand registers the flags of the settings it uses, parses its
// command line and resolves: a flag beats its environment variable, which
// beats the default.
func ExampleResolve() {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	config.RegisterFlags(fs, config.ModeServe)
	if err := fs.Parse([]string{"--listen", "127.0.0.1:9000"}); err != nil {
		panic(err)
	}
	env := map[string]string{"GATEWAY_LISTEN": "0.0.0.0:8090", "DAGU_URL": "https://dagu.example.com/"}
	cfg, err := config.Resolve(fs, func(name string) string { return env[name] })
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Listen, cfg.DaguURL, cfg.UpstreamTimeout)
	// Output:
	// 127.0.0.1:9000 https://dagu.example.com 15s
}

// Every row of the settings table says which subcommands take its flag.
func ExampleSetting_UsedBy() {
	listen, _ := config.Lookup(config.FlagListen)
	for _, mode := range []config.Mode{config.ModeServe, config.ModeStdio, config.ModeHealthcheck} {
		fmt.Println(mode, listen.UsedBy(mode))
	}
	// Output:
	// serve true
	// stdio false
	// healthcheck true
}
