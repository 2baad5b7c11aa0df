// SPDX-License-Identifier: Apache-2.0

package gwproc

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build returns the binary named by the environment variable binEnv (an
// older build, say) when it is set, else ./cmd/gateway built into dir.
func Build(dir, binEnv string) (string, error) {
	if bin := os.Getenv(binEnv); bin != "" {
		return bin, nil
	}
	bin := filepath.Join(dir, "gateway")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/dagu-mcp-gateway/gateway/cmd/gateway")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// FreePort returns a loopback TCP port nothing listens on right now.
func FreePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}
