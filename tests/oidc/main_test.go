// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"fmt"
	"os"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// The binary under test and the provider every test signs in with, both
// started once by TestMain.
var (
	gatewayBin string
	idp        *provider
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// run builds the gateway, starts the provider, runs the tests and stops
// the provider.
func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "oidc-gateway-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if gatewayBin, err = gwproc.Build(dir, "OIDC_GATEWAY_BIN"); err != nil {
		fmt.Fprintln(os.Stderr, "build the gateway:", err)
		return 1
	}
	if idp, err = startProvider(); err != nil {
		fmt.Fprintln(os.Stderr, "start the OpenID provider:", err)
		return 1
	}
	defer idp.stop()
	return m.Run()
}
