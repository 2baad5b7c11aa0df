// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/pflag"
)

// RegisterFlags adds to fs the flag of every setting the subcommand mode
// uses. Call Resolve after fs has been parsed. Help texts name the
// environment variable of each flag and its default.
func RegisterFlags(fs *pflag.FlagSet, mode Mode) {
	for _, s := range settings {
		if s.UsedBy(mode) {
			s.register(fs)
		}
	}
}

// register adds the setting's flag to fs with its typed default. A default
// that does not parse is a mistake in the table, which its tests catch.
func (s Setting) register(fs *pflag.FlagSet) {
	help := s.usage()
	switch s.Kind {
	case KindString, KindNumber:
		fs.String(s.Flag, s.Default, help)
	case KindBool:
		fs.Bool(s.Flag, must(strconv.ParseBool(orZero(s.Default, "false"))), help)
	case KindDuration:
		fs.Duration(s.Flag, must(time.ParseDuration(orZero(s.Default, "0s"))), help)
	case KindInt:
		fs.Int(s.Flag, must(strconv.Atoi(orZero(s.Default, "0"))), help)
	case KindSize:
		v := byteSizeValue(must(ParseByteSize(orZero(s.Default, "0"))))
		fs.Var(&v, s.Flag, help)
	case KindList:
		fs.StringArray(s.Flag, nil, help)
	default:
		panic(fmt.Sprintf("setting %s: unknown kind %d", s.Flag, s.Kind))
	}
}

// usage builds a flag's help text naming its environment variable. pflag
// prints non-zero defaults itself; ZeroDefault describes the default of a
// flag whose zero value pflag would not show.
func (s Setting) usage() string {
	text := s.Help + EnvNote(s.Flag)
	if s.ZeroDefault != "" {
		text += fmt.Sprintf(" (default %s)", s.ZeroDefault)
	}
	return text
}

// EnvNote is the " [env NAME]" suffix of a flag's help text, for a
// subcommand that words a shared flag's help its own way.
func EnvNote(flag string) string { return fmt.Sprintf(" [env %s]", envOf(flag)) }

func orZero(s, zero string) string {
	if s == "" {
		return zero
	}
	return s
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("settings table: %v", err))
	}
	return v
}
