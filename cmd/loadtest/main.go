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

// loadAndReport runs the load and prints its report.
func loadAndReport(ctx context.Context, cfg config, stdout io.Writer) error {
	res, err := runLoad(ctx, cfg)
	if err != nil {
		return err
	}
	report(stdout, cfg, res)
	return nil
}
