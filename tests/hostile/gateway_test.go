// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// gateway is one gateway process under attack.
type gateway = gwproc.Process

// startGateway runs `gateway serve` on a free loopback port (or on
// listenHost) in front of d with args and extra environment; it is
// stopped when the test ends.
func startGateway(t *testing.T, d *dagu, listenHost string, args []string, env ...string) *gateway {
	t.Helper()
	return gwproc.Start(t, gwproc.Options{
		Bin:        gatewayBin,
		ListenHost: listenHost,
		Args:       append([]string{"--dagu-url", d.url}, args...),
		Env:        append(os.Environ(), env...),
	})
}

// withTimeout is a context for one phase of an attack.
func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
