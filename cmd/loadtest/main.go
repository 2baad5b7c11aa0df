// SPDX-License-Identifier: Apache-2.0

// Command loadtest loads a dagu-mcp-gateway (or, with -direct, the Dagu
// REST API behind it) with concurrent dagu_read calls for a bounded time and
// prints calls per second, latency percentiles, errors and, given the
// gateway's process ID, its peak resident memory.
//
//	go run ./cmd/loadtest -url http://127.0.0.1:8090/mcp -clients 32 -duration 10s -mix dags,runs,dag_spec,dag
//
// It refuses to send traffic anywhere but a loopback address unless
// -allow-remote is given. With -direct it loads the REST API of the Dagu
// behind the gateway (the demo Dagu `gateway demo` prints) for the same
// data, to compare.
//
// With -baseline it compares the gateway with another MCP server, Dagu's
// built-in /mcp, under the same load: the same clients and dagu_read
// arguments on each endpoint in turn, in interleaved rounds, and prints
// each ratio as the median and range over the rounds:
//
//	go run ./cmd/loadtest -url http://127.0.0.1:8091/mcp -baseline $DAGU_URL/mcp -clients 1 -mix dags,runs,dag,run_latest
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses the flags and runs the load; it returns the process exit
// code.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr, os.Getenv)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := loadAndReport(ctx, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	return 0
}

// loadAndReport runs the load (or, with -baseline, the comparison) and
// prints its report.
func loadAndReport(ctx context.Context, cfg config, stdout io.Writer) error {
	if cfg.upstreamDelay > 0 {
		p, err := startUpstreamProxy(ctx, cfg, stdout)
		if err != nil {
			return err
		}
		defer p.close()
		cfg.proxy = p
	}
	if cfg.resolveRun {
		id, err := resolveRunID(ctx, cfg)
		if err != nil {
			return err
		}
		cfg.runID = id
		fmt.Fprintf(stdout, "run %s/%s (the latest run of %s)\n", cfg.dag, id, cfg.dag)
		if usesForeach(cfg.mix) {
			if cfg.foreachRunID, err = resolveLatest(ctx, cfg, cfg.foreachDAG); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "run %s/%s (the latest run of %s)\n", cfg.foreachDAG, cfg.foreachRunID, cfg.foreachDAG)
		}
	}
	if cfg.serveBare != "" {
		return serveBare(ctx, cfg, cfg.serveBare, stdout)
	}
	if cfg.baseline.url != "" {
		cmp, err := runCompare(ctx, cfg, stdout)
		if err != nil {
			return err
		}
		reportCompare(stdout, cfg, cmp)
		return nil
	}
	res, err := runLoad(ctx, cfg)
	if err != nil {
		return err
	}
	report(stdout, cfg, res)
	if cfg.proxy != nil {
		reportTrips(stdout, cfg, res.trips)
	}
	return nil
}

// startUpstreamProxy starts the delaying proxy and waits for the gateway,
// which the operator starts with the proxy as its Dagu, to be ready and
// done with its start-up calls.
func startUpstreamProxy(ctx context.Context, cfg config, stdout io.Writer) (*delayProxy, error) {
	p, err := startDelayProxy(cfg.upstream, cfg.upstreamListen, cfg.upstreamDelay)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "upstream proxy %s -> %s, %s per request; waiting for the gateway at %s\n", p.url, cfg.upstream, cfg.upstreamDelay, cfg.url)
	hc := newHTTPClient(cfg)
	defer hc.CloseIdleConnections()
	err = waitReady(ctx, cfg.url, hc)
	if err == nil {
		err = p.settle(ctx)
	}
	if err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}
