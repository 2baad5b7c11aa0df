// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu/fakedagutest"
)

// TestMetricsListenBindFailureFailsTheStart: serve asked for metrics on an
// address it cannot bind returns an error naming --metrics-listen, as the
// main listener does (it was only logged, and the gateway served without
// the metrics it was asked for). The context is cancelled up front, so
// serving returns at once whatever it does: nil before the fix.
func TestMetricsListenBindFailureFailsTheStart(t *testing.T) {
	t.Parallel()
	_, daguURL := fakedagutest.Start(t, fakedagu.Options{APIKey: fakedagutest.APIKey})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg, err := resolveFrom(t, []string{"--dagu-url", daguURL, "--dagu-api-key", fakedagutest.APIKey,
		"--listen", ln.Addr().String(), "--metrics-listen", taken.Addr().String()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(config.ModeServe, readTargets()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = serveHTTP(ctx, cfg, slog.New(slog.DiscardHandler), mapEnv(nil), ln)
	if err == nil || !strings.Contains(err.Error(), "--metrics-listen "+taken.Addr().String()) {
		t.Fatalf("serve with a taken metrics address: %v, want an error naming --metrics-listen", err)
	}
}
