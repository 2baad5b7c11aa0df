// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
)

// flagHealthTimeout bounds one healthcheck probe. It has no environment
// variable: container runtimes pass it on the command line if at all.
const flagHealthTimeout = "timeout"

func newHealthcheckCommand(env environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Probe the local gateway's /healthz; exit 0 when healthy, else 1",
		Long:  healthcheckHelp,
		Args:  cobra.NoArgs,
	}
	fs := cmd.Flags()
	config.RegisterFlags(fs, config.ModeHealthcheck)
	fs.Lookup(config.FlagListen).Usage = "host:port the gateway listens on; an unspecified host is probed on loopback" + config.EnvNote(config.FlagListen)
	fs.Duration(flagHealthTimeout, defaultHealthTimeout, "time limit for the whole probe")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		// The same flag > environment > default resolution as every
		// other setting, limited to the one setting the probe needs.
		cfg, resolveErr := config.Resolve(cmd.Flags(), env.getenv)
		timeout, err := cmd.Flags().GetDuration(flagHealthTimeout)
		if err = errors.Join(resolveErr, err); err == nil {
			err = probeHealth(cmd.Context(), cfg.Listen, timeout)
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

// probeHealth sends GET /healthz to the gateway listening on listen and
// fails unless it answers 200 within timeout. It needs no shell or curl and
// never goes through a proxy.
func probeHealth(ctx context.Context, listen string, timeout time.Duration) error {
	url, err := healthURL(listen)
	if err != nil {
		return err
	}
	if timeout <= 0 {
		return errors.New("the timeout must be positive")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	client := &http.Client{
		// Never through a proxy from the environment, never a kept-alive
		// connection: one short, direct request.
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %s", url, resp.Status)
	}
	return nil
}

// healthURL turns a listen address into the URL of its /healthz. A wildcard or
// empty host becomes the loopback address of the same family.
func healthURL(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--%s %q: %w", config.FlagListen, listen, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return "", fmt.Errorf("--%s %q: the port must be a number from 1 to 65535", config.FlagListen, listen)
	}
	switch ip := net.ParseIP(host); {
	case host == "":
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// defaultHealthTimeout bounds one probe unless the command says otherwise.
const defaultHealthTimeout = 3 * time.Second

// healthcheckHelp is the healthcheck command's long help.
const healthcheckHelp = `Probe the gateway's own GET /healthz on the configured listen address and exit
0 when it answers 200, 1 otherwise (no answer, another status, a timeout, or a
listen address that cannot be probed). It needs no shell or curl, so the
distroless container image uses it as its HEALTHCHECK.

The address comes from --listen or GATEWAY_LISTEN, exactly as for serve, so
the probe follows the server without extra configuration. An unspecified host
(0.0.0.0, [::] or an empty host as in ":8090") is probed on the loopback
address. /healthz needs no token and skips the Host check.

Example (Dockerfile):
  HEALTHCHECK CMD ["/dagu-mcp-gateway", "healthcheck"]`
