// SPDX-License-Identifier: Apache-2.0

package gwproc

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/testkit"
)

// Bounds of one process: the log bytes kept, the log tail shown when a
// test fails, the wait for /healthz and for the exit after an interrupt.
const (
	logLimit    = 1 << 20
	tailBytes   = 4096
	healthyWait = 30 * time.Second
	stopWait    = 10 * time.Second
)

// Options say how to start the gateway.
type Options struct {
	Bin string // the gateway binary
	// ListenHost is the host it listens on; 127.0.0.1 when empty. Base
	// always names the loopback address.
	ListenHost string
	// Args follow `serve --listen <host:port> --log-format json`.
	Args []string
	// Env is its whole environment; this process's when nil.
	Env []string
}

// Process is one running gateway.
type Process struct {
	Base string             // http://127.0.0.1:port
	Cmd  *exec.Cmd          // the running command
	Logs *testkit.LogBuffer // its stdout and stderr, the first MiB
	done chan struct{}
	once sync.Once
}

// Start runs `gateway serve` on a free port and waits until /healthz
// answers 200; the process is stopped when the test ends, and its log
// tail is shown if the test failed.
func Start(t testing.TB, o Options) *Process {
	t.Helper()
	port := FreePort(t)
	host := o.ListenHost
	if host == "" {
		host = "127.0.0.1"
	}
	args := append([]string{"serve", "--listen", net.JoinHostPort(host, port), "--log-format", "json"}, o.Args...)
	cmd := exec.Command(o.Bin, args...)
	cmd.Env = o.Env
	p := &Process{Base: "http://127.0.0.1:" + port, Cmd: cmd, Logs: &testkit.LogBuffer{Limit: logLimit}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.Logs, p.Logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("gateway log (last of %d bytes):\n%s", p.Logs.Total(), p.Logs.Tail(tailBytes))
		}
	})
	p.waitHealthy(t)
	return p
}

// Stop interrupts the gateway and waits for it to exit (10 s, then it is
// killed); later calls do nothing.
func (p *Process) Stop() {
	p.once.Do(func() {
		_ = p.Cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.done:
		case <-time.After(stopWait):
			_ = p.Cmd.Process.Kill()
			<-p.done
		}
	})
}

// Alive reports whether the process still runs.
func (p *Process) Alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// LoggedLine reports whether one line of the gateway's log holds every
// part.
func (p *Process) LoggedLine(parts ...string) bool {
	for _, line := range strings.Split(p.Logs.String(), "\n") {
		all := true
		for _, part := range parts {
			all = all && strings.Contains(line, part)
		}
		if all {
			return true
		}
	}
	return false
}

// waitHealthy waits for /healthz, 30 s at most.
func (p *Process) waitHealthy(t testing.TB) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(healthyWait)
	for time.Now().Before(deadline) {
		if !p.Alive() {
			t.Fatalf("the gateway exited at start:\n%s", p.Logs.Tail(tailBytes))
		}
		if res, err := client.Get(p.Base + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the gateway did not become healthy in 30 s:\n%s", p.Logs.Tail(tailBytes))
}
