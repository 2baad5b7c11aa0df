// SPDX-License-Identifier: Apache-2.0

//go:build instances

package instances

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// gatewayBin is the binary under test, built once by TestMain.
var gatewayBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "instances-gateway-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gatewayBin, err = gwproc.Build(dir, "INSTANCES_GATEWAY_BIN")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build the gateway:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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
type gateway = gwproc.Process

// startGateway runs `gateway serve` with args on a free loopback port;
// it is stopped when the test ends.
func startGateway(t *testing.T, args ...string) *gateway {
	t.Helper()
	return gwproc.Start(t, gwproc.Options{Bin: gatewayBin, Args: args, Env: gatewayEnv()})
}

// gatewayEnv is this process's environment without the gateway's own
// variables, so that a developer's DAGU_URL or GATEWAY_* never reaches the
// gateway under test.
func gatewayEnv() []string {
	out := []string{} // never nil: nil would hand over the whole environment
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DAGU_") && !strings.HasPrefix(kv, "GATEWAY_") {
			out = append(out, kv)
		}
	}
	return out
}
