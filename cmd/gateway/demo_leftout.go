// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// errDemoLeftOut is what `demo` answers in a build with the nodemo tag
// (make build, the container image), which leaves out the demo Dagu and
// its recordings: a server never runs the demo.
var errDemoLeftOut = errors.New("this build leaves out the demo and its recorded Dagu (built with -tags nodemo, as make build and the container image are); " +
	"run it with `go run ./cmd/gateway demo` (or `make demo`) in a checkout, or with a release archive's binary")

// newDemoLeftOutCommand is the demo command of a build without the demo:
// whatever its arguments, it says where to find the demo and exits 2.
func newDemoLeftOutCommand(env environment) *cobra.Command {
	return &cobra.Command{
		Use:                "demo",
		Short:              "Run the gateway against a built-in demo Dagu (left out of this build)",
		Long:               errDemoLeftOut.Error(),
		DisableFlagParsing: true,
		RunE:               func(*cobra.Command, []string) error { return errDemoLeftOut },
	}
}
