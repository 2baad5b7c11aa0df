// SPDX-License-Identifier: Apache-2.0

// Command gateway serves the dagu_read MCP tool in front of a Dagu server:
// over Streamable HTTP (serve), over stdio for desktop clients (stdio), or
// against a built-in demo Dagu (demo).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		setMemoryLimit: debug.SetMemoryLimit})
	stop()
	os.Exit(code)
}

// environment is what the command reads and writes besides its arguments,
// so tests can run it in-process.
type environment struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// setMemoryLimit sets the runtime's soft memory limit
	// (debug.SetMemoryLimit); nil leaves it alone, as tests that run the
	// command in-process do.
	setMemoryLimit func(int64) int64
}

// exitError carries a process exit code through cobra.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run executes one command line and returns the process exit code.
func run(ctx context.Context, args []string, env environment) int {
	root := newRootCommand(env)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var exit exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.code
	default:
		fmt.Fprintln(env.stderr, "dagu-mcp-gateway:", err)
		return 2
	}
}
