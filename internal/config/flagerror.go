// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// ExplainFlagError says why a subcommand refuses a flag that is a setting
// of other subcommands (stdio --listen): each takes only the settings it
// uses, so that a flag never looks accepted while it changes nothing.
// Other errors come back unchanged.
func ExplainFlagError(command string, err error) error {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) {
		return err
	}
	s, ok := Lookup(unknown.GetSpecifiedName())
	if !ok {
		return err
	}
	users := make([]string, len(s.Modes))
	for i, m := range s.Modes {
		users[i] = string(m)
	}
	return fmt.Errorf("%w: %s does not use it (it is a setting of %s)", err, command, strings.Join(users, ", "))
}
