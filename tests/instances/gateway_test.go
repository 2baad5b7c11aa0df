// SPDX-License-Identifier: Apache-2.0

//go:build instances

package instances

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// gatewayBin is the binary under test, built once by TestMain.
var gatewayBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "instances-gateway-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gatewayBin, err = buildGateway(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build the gateway:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildGateway returns INSTANCES_GATEWAY_BIN, else ./cmd/gateway built
// into dir.
func buildGateway(dir string) (string, error) {
	if bin := os.Getenv("INSTANCES_GATEWAY_BIN"); bin != "" {
		return bin, nil
	}
	bin := filepath.Join(dir, "gateway")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/dagu-mcp-gateway/gateway/cmd/gateway")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// instance is one entry of the instances file a test writes.
type instance struct {
	name, url, keyFile string
}

// writeInstances writes an instances file naming every instance and
// returns its path; passthrough instances have no key file.
func writeInstances(t *testing.T, list []instance) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("instances:\n")
	for _, in := range list {
		fmt.Fprintf(&b, "  - name: %s\n    url: %s\n", in.name, in.url)
		if in.keyFile != "" {
			fmt.Fprintf(&b, "    apiKeyFile: %s\n", in.keyFile)
		}
	}
	path := filepath.Join(t.TempDir(), "instances.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeSecret writes a key to a file of its own, readable by the owner
// only, and returns its path.
func writeSecret(t *testing.T, key string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// gateway is one running gateway process.
type gateway struct {
	base string // http://127.0.0.1:port
	cmd  *exec.Cmd
	logs *lockedBuffer
	done chan struct{}
	once sync.Once
}

// startGateway runs `gateway serve` with args on a free loopback port;
// it is stopped when the test ends.
func startGateway(t *testing.T, args ...string) *gateway {
	t.Helper()
	port := freePort(t)
	all := append([]string{"serve", "--listen", "127.0.0.1:" + port, "--log-format", "json"}, args...)
	cmd := exec.Command(gatewayBin, all...)
	cmd.Env = gatewayEnv()
	g := &gateway{base: "http://127.0.0.1:" + port, cmd: cmd, logs: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = g.logs, g.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(g.done) }()
	t.Cleanup(func() {
		g.stop()
		if t.Failed() {
			t.Logf("gateway log (last 4 KiB):\n%s", g.logs.tail(4096))
		}
	})
	g.waitHealthy(t)
	return g
}

// stop interrupts the gateway and waits for it to exit (10 s, then it is
// killed); later calls do nothing.
func (g *gateway) stop() {
	g.once.Do(func() {
		_ = g.cmd.Process.Signal(os.Interrupt)
		select {
		case <-g.done:
		case <-time.After(10 * time.Second):
			_ = g.cmd.Process.Kill()
			<-g.done
		}
	})
}

// gatewayEnv is this process's environment without the gateway's own
// variables, so that a developer's DAGU_URL or GATEWAY_* never reaches the
// gateway under test.
func gatewayEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DAGU_") && !strings.HasPrefix(kv, "GATEWAY_") {
			out = append(out, kv)
		}
	}
	return out
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

// lockedBuffer keeps the first 1 MiB of the gateway's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := 1<<20 - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) tail(n int) string {
	s := b.String()
	return s[max(0, len(s)-n):]
}

// loggedLine reports whether one line of the gateway's log holds every
// part.
func (g *gateway) loggedLine(parts ...string) bool {
	for _, line := range strings.Split(g.logs.String(), "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}
