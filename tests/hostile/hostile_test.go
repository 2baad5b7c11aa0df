// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"fmt"
	"os"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// Shared by every test: the binary under attack and the Dagu it reads.
var (
	gatewayBin string
	daguUnder  *dagu
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hostile")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := run(m, dir)
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func run(m *testing.M, dir string) int {
	bin, err := gwproc.Build(dir, "HOSTILE_GATEWAY_BIN")
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the gateway:", err)
		return 1
	}
	gatewayBin = bin
	d, stop := newDagu()
	defer stop()
	daguUnder = d
	return m.Run()
}
