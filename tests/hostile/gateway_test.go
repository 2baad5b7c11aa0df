// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// buildGateway returns the binary under attack: HOSTILE_GATEWAY_BIN (an
// older build, say), else ./cmd/gateway built into dir.
func buildGateway(dir string) (string, error) {
	if bin := os.Getenv("HOSTILE_GATEWAY_BIN"); bin != "" {
		return bin, nil
	}
	bin := filepath.Join(dir, "gateway")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/dagu-mcp-gateway/gateway/cmd/gateway")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// gateway is one gateway process under attack.
type gateway struct {
	base string // http://127.0.0.1:port
	cmd  *exec.Cmd
	logs *cappedBuffer
	done chan struct{}
}

// startGateway runs `gateway serve` on a free loopback port (or on
// listenHost) in front of d with args and extra environment; it is
// stopped when the test ends.
func startGateway(t *testing.T, d *dagu, listenHost string, args []string, env ...string) *gateway {
	t.Helper()
	port := freePort(t)
	if listenHost == "" {
		listenHost = "127.0.0.1"
	}
	all := append([]string{"serve", "--dagu-url", d.url, "--listen", net.JoinHostPort(listenHost, port), "--log-format", "json"}, args...)
	cmd := exec.Command(gatewayBin, all...)
	cmd.Env = append(os.Environ(), env...)
	g := &gateway{base: "http://127.0.0.1:" + port, cmd: cmd, logs: &cappedBuffer{limit: 1 << 20}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = g.logs, g.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(g.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-g.done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-g.done
		}
		if t.Failed() {
			t.Logf("gateway log (last of %d bytes):\n%s", g.logs.total(), g.logs.tail(4096))
		}
	})
	g.waitHealthy(t)
	return g
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// waitHealthy waits for /healthz, 30 s at most.
func (g *gateway) waitHealthy(t *testing.T) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-g.done:
			t.Fatalf("the gateway exited at start:\n%s", g.logs.tail(4096))
		default:
		}
		if res, err := client.Get(g.base + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the gateway did not become healthy in 30 s:\n%s", g.logs.tail(4096))
}

// alive reports whether the process still runs.
func (g *gateway) alive() bool {
	select {
	case <-g.done:
		return false
	default:
		return true
	}
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
func (g *gateway) peakRSS(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", g.cmd.Process.Pid))
	if err != nil {
		t.Fatalf("peak RSS: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if value, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fields := strings.Fields(value)
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", value, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM line")
	return 0
}

// cappedBuffer keeps the first limit bytes written and counts the rest.
type cappedBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
	n     int64
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n += int64(len(p))
	if room := b.limit - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *cappedBuffer) total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

func (b *cappedBuffer) tail(n int) string {
	s := b.String()
	return s[max(0, len(s)-n):]
}

// withTimeout is a context for one phase of an attack.
func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
