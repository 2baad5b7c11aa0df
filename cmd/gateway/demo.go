// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// runDemo starts the embedded demo Dagu on a loopback port and serves the
// gateway in front of it. The demo Dagu accepts the key given with
// --dagu-api-key (or DAGU_API_KEY), so other commands (doctor, stdio) can
// be pointed at its URL; without one it makes up a random key.
func runDemo(ctx context.Context, cmd *cobra.Command, cfg config.Config, env environment, profile fakedagu.Profile) error {
	key, keyGiven := cfg.DaguAPIKey, cfg.DaguAPIKey != ""
	if !keyGiven {
		var err error
		if key, err = demoKey(); err != nil {
			return err
		}
	}
	upstream, upstreamURL, err := startDemoDagu(key, profile)
	if err != nil {
		return err
	}
	defer upstream.Close()
	cfg.DaguURL, cfg.DaguAPIKey, cfg.DaguAPIKeyFile = upstreamURL, key, ""
	listen, _ := config.Lookup(config.FlagListen)
	explicit := cmd.Flags().Changed(listen.Flag) || env.getenv(listen.Env) != ""
	ln, err := listenForDemo(cfg.Listen, explicit)
	if err != nil {
		return err
	}
	cfg.Listen = ln.Addr().String()
	tokens, err := cfg.InboundTokens()
	if err != nil {
		return err
	}
	b := demoBanner{listen: cfg.Listen, daguURL: upstreamURL, tokens: len(tokens) > 0, command: selfCommand(os.Args[0])}
	if !keyGiven {
		b.key = key
	}
	b.print(env.stdout)
	return serveHTTP(ctx, cfg, newLogger(cfg, env.stderr), env.getenv, ln)
}

// startDemoDagu serves the fake Dagu of a release (the current one with the
// newer foreach routes; timestamps moved to the last hour) on an ephemeral
// loopback port.
func startDemoDagu(key string, profile fakedagu.Profile) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("demo Dagu: %w", err)
	}
	fake := fakedagu.New(fakedagu.Options{
		APIKey:  key,
		Role:    "admin",
		Foreach: fakedagu.ForeachRoutes,
		Rebase:  time.Now().Add(-30 * time.Minute),
		Profile: profile,
	})
	srv := &http.Server{Handler: fake, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}

// listenForDemo listens on the configured address; when the operator did
// not choose one and the default port is taken, any free loopback port will
// do, so `gateway demo` works on a busy machine.
func listenForDemo(addr string, explicit bool) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil || explicit || !errors.Is(err, syscall.EADDRINUSE) {
		return ln, err
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

func demoKey() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "dagu_demo_" + hex.EncodeToString(b), nil
}
