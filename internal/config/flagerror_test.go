// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"io"
	"testing"

	"github.com/spf13/pflag"
)

// TestExplainFlagError: a flag that is another subcommand's setting is
// explained with the subcommands that use it; an unknown flag that is no
// setting, and any other error, come back as they were.
func TestExplainFlagError(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) error {
		fs := pflag.NewFlagSet("stdio", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		RegisterFlags(fs, ModeStdio)
		return fs.Parse(args)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{parse("--listen", "127.0.0.1:1"), "unknown flag: --listen: stdio does not use it (it is a setting of serve, demo, healthcheck)"},
		{parse("--no-such-flag"), "unknown flag: --no-such-flag"},
		{errors.New("something else"), "something else"},
	} {
		got := ExplainFlagError("stdio", tc.err)
		if got.Error() != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		if !errors.Is(got, tc.err) {
			t.Errorf("%q does not wrap %q", got, tc.err)
		}
	}
}
