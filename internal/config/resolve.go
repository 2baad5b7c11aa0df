// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Resolve builds a Config from a flag set registered with RegisterFlags and
// parsed. For each setting whose flag fs has, a flag given on the command
// line wins; otherwise its environment variable, read through getenv
// (os.Getenv in production), is used when non-empty; otherwise the flag's
// default. A setting the subcommand does not use (fs lacks its flag) takes
// its default and ignores its variable. Environment values that do not
// parse are reported together, each naming its variable. Resolve does not
// check the result: call Config.Validate.
func Resolve(fs *pflag.FlagSet, getenv func(string) string) (Config, error) {
	defaults := pflag.NewFlagSet("defaults", pflag.ContinueOnError)
	for _, s := range settings {
		s.register(defaults)
	}
	used := &resolver{fs: fs, getenv: getenv}
	unused := &resolver{fs: defaults, getenv: func(string) string { return "" }}
	var c Config
	for _, s := range settings {
		r := used
		if fs.Lookup(s.Flag) == nil {
			r = unused
		}
		r.resolve(s, &c)
	}
	c.DaguURL = strings.TrimRight(c.DaguURL, "/")
	c.LogLevel = strings.ToLower(c.LogLevel)
	c.LogFormat = strings.ToLower(c.LogFormat)
	c.UpstreamAuth = strings.ToLower(c.UpstreamAuth)
	return c, errors.Join(append(used.errs, unused.errs...)...)
}

// resolve fills the Config field of one setting.
func (r *resolver) resolve(s Setting, c *Config) {
	switch p := s.field(c).(type) {
	case *string:
		*p = r.string(s.Flag)
	case *bool:
		*p = r.bool(s.Flag)
	case *time.Duration:
		*p = r.duration(s.Flag)
	case *int:
		*p = r.int(s.Flag)
	case *int64:
		*p = r.byteSize(s.Flag)
	case *[]string:
		*p = r.list(s.Flag, s.split)
	case *float64:
		*p = r.number(s.Flag)
	default:
		r.lookupErr(s.Flag, fmt.Errorf("field of type %T", p))
	}
}

// resolver reads one setting at a time with flag > env > default
// precedence, collecting parse errors instead of stopping at the first.
type resolver struct {
	fs     *pflag.FlagSet
	getenv func(string) string
	errs   []error
}

// fromEnv returns the environment value for flag when the flag was not set
// on the command line and the variable is non-empty.
func (r *resolver) fromEnv(flag string) (string, bool) {
	if r.fs.Changed(flag) {
		return "", false
	}
	v := strings.TrimSpace(r.getenv(envOf(flag)))
	return v, v != ""
}

// fail records an unparsable environment value. Secret settings are plain
// strings that never fail to parse, so messages may quote the bad value.
func (r *resolver) fail(flag string, err error) {
	r.errs = append(r.errs, fmt.Errorf("environment variable %s: %w", envOf(flag), err))
}

// lookupErr records a programming error: a flag that was never registered
// or has another type.
func (r *resolver) lookupErr(flag string, err error) {
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("flag --%s: %w", flag, err))
	}
}

func (r *resolver) string(flag string) string {
	if v, ok := r.fromEnv(flag); ok {
		return v
	}
	v, err := r.fs.GetString(flag)
	r.lookupErr(flag, err)
	return strings.TrimSpace(v)
}

func (r *resolver) bool(flag string) bool {
	return resolveValue(r, flag, r.fs.GetBool, func(v string) (bool, error) {
		b, err := strconv.ParseBool(v)
		if err != nil {
			err = fmt.Errorf("%q is not a boolean: use true or false", v)
		}
		return b, err
	})
}

func (r *resolver) duration(flag string) time.Duration {
	return resolveValue(r, flag, r.fs.GetDuration, func(v string) (time.Duration, error) {
		d, err := time.ParseDuration(v)
		if err != nil {
			err = fmt.Errorf("%q is not a duration: write it like 15s, 2m or 1h30m", v)
		}
		return d, err
	})
}

func (r *resolver) int(flag string) int {
	return resolveValue(r, flag, r.fs.GetInt, func(v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil {
			err = fmt.Errorf("%q is not a whole number", v)
		}
		return n, err
	})
}

// resolveValue is a flag's value: its environment variable's, parsed by
// parse, when that is set, else the flag's as get reads it. A parse or
// lookup failure is recorded against the flag.
func resolveValue[T any](r *resolver, flag string, get func(string) (T, error), parse func(string) (T, error)) T {
	if v, ok := r.fromEnv(flag); ok {
		x, err := parse(v)
		if err != nil {
			r.fail(flag, err)
		}
		return x
	}
	x, err := get(flag)
	r.lookupErr(flag, err)
	return x
}

func (r *resolver) byteSize(flag string) int64 {
	if v, ok := r.fromEnv(flag); ok {
		n, err := ParseByteSize(v)
		if err != nil {
			r.fail(flag, err)
		}
		return n
	}
	f := r.fs.Lookup(flag)
	if f == nil {
		r.lookupErr(flag, errors.New("not registered"))
		return 0
	}
	v, ok := f.Value.(*byteSizeValue)
	if !ok {
		r.lookupErr(flag, errors.New("not a size flag"))
		return 0
	}
	return int64(*v)
}

// list resolves a repeatable flag. The environment form is one string cut
// by split; empty items are dropped either way.
func (r *resolver) list(flag string, split func(string) []string) []string {
	var items []string
	if v, ok := r.fromEnv(flag); ok {
		items = split(v)
	} else {
		var err error
		items, err = r.fs.GetStringArray(flag)
		r.lookupErr(flag, err)
	}
	return compactItems(items)
}

// number resolves a decimal number given as a string flag. A value that
// does not parse is reported as the environment variable's, as it always
// has been, whichever source gave it.
func (r *resolver) number(flag string) float64 {
	text := r.string(flag)
	n, err := strconv.ParseFloat(text, 64)
	if err != nil {
		r.fail(flag, fmt.Errorf("%q is not a number of reads per second", text))
	}
	return n
}

// compactItems trims every item and drops the empty ones.
func compactItems(items []string) []string {
	var out []string
	for _, item := range items {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
