// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// goodToken is an inbound token the front door accepts.
const goodToken = "0123456789abcdef0123456789abcdef"

// resolveFrom registers serve's flags, parses args and resolves with env as
// the whole environment.
func resolveFrom(t *testing.T, args []string, env map[string]string) (config.Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("gateway", pflag.ContinueOnError)
	config.RegisterFlags(fs, config.ModeServe)
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	return config.Resolve(fs, mapEnv(env))
}

// mapEnv is an injected environment holding only env.
func mapEnv(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}
