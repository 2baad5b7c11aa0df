// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestDemoLeftOutSaysWhereToFindIt: in a build without the demo (-tags
// nodemo), demo fails with the same error whatever its arguments, and the
// error says how to run the demo instead.
func TestDemoLeftOutSaysWhereToFindIt(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"--dagu-profile", "2.0", "--listen", "127.0.0.1:0"}, {"--no-such-flag"}} {
		var out bytes.Buffer
		cmd := newDemoLeftOutCommand(environment{stdout: &out, stderr: &out, getenv: func(string) string { return "" }})
		cmd.SetArgs(args)
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		if err := cmd.Execute(); !errors.Is(err, errDemoLeftOut) {
			t.Errorf("demo %v: %v, want errDemoLeftOut", args, err)
		}
	}
	for _, want := range []string{"-tags nodemo", "go run ./cmd/gateway demo", "make demo", "release archive"} {
		if !strings.Contains(errDemoLeftOut.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, errDemoLeftOut)
		}
	}
}
