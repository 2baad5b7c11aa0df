// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// ResolveConfig builds a Config from a parsed flag set registered with
// RegisterFlags. A flag given on the command line wins; otherwise its
// environment variable, read through getenv (os.Getenv in production), is
// used when non-empty; otherwise the flag's default. Environment values that
// do not parse are reported together, each naming its variable.
// ResolveConfig does not check the result: call Config.Validate.
func ResolveConfig(fs *pflag.FlagSet, getenv func(string) string) (Config, error) {
	r := &resolver{fs: fs, getenv: getenv}
	c := Config{
		DaguURL:                strings.TrimRight(r.string(flagDaguURL), "/"),
		DaguAPIKey:             r.string(flagDaguAPIKey),
		DaguAPIKeyFile:         r.string(flagDaguAPIKeyFile),
		DaguCAFile:             r.string(flagDaguCAFile),
		DaguInsecureSkipVerify: r.bool(flagDaguInsecureSkipVerify),
		Listen:                 r.string(flagListen),
		AuthTokens:             r.list(flagAuthToken, splitComma),
		AuthTokenFile:          r.string(flagAuthTokenFile),
		AllowedHosts:           r.list(flagAllowedHost, splitComma),
		UpstreamTimeout:        r.duration(flagUpstreamTimeout),
		MaxResponseBytes:       r.byteSize(flagMaxResponseBytes),
		UpstreamBodyBudget:     r.byteSize(flagUpstreamBodyBudget),
		ReferenceDir:           r.string(flagReferenceDir),
		CacheTTL:               r.duration(flagCacheTTL),
		WorkbookRoots:          r.list(flagWorkbookRoot, filepath.SplitList),
		WorkbookMaxBytes:       r.byteSize(flagWorkbookMaxBytes),
		WorkbookMaxRows:        r.int(flagWorkbookMaxRows),
		WorkbookMaxSheets:      r.int(flagWorkbookMaxSheets),
		WorkbookMaxMemory:      r.byteSize(flagWorkbookMaxMemory),
		WorkbookConcurrency:    r.int(flagWorkbookConcurrency),
		LogLevel:               strings.ToLower(r.string(flagLogLevel)),
		LogFormat:              strings.ToLower(r.string(flagLogFormat)),
		ShutdownTimeout:        r.duration(flagShutdownTimeout),
	}
	resolvePolicy(r, &c)
	return c, errors.Join(r.errs...)
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
	v := strings.TrimSpace(r.getenv(flagEnv[flag]))
	return v, v != ""
}

// fail records an unparsable environment value. Secret settings are plain
// strings that never fail to parse, so messages may quote the bad value.
func (r *resolver) fail(flag string, err error) {
	r.errs = append(r.errs, fmt.Errorf("environment variable %s: %w", flagEnv[flag], err))
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
	if v, ok := r.fromEnv(flag); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			r.fail(flag, fmt.Errorf("%q is not a boolean: use true or false", v))
		}
		return b
	}
	b, err := r.fs.GetBool(flag)
	r.lookupErr(flag, err)
	return b
}

func (r *resolver) duration(flag string) time.Duration {
	if v, ok := r.fromEnv(flag); ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			r.fail(flag, fmt.Errorf("%q is not a duration: write it like 15s, 2m or 1h30m", v))
		}
		return d
	}
	d, err := r.fs.GetDuration(flag)
	r.lookupErr(flag, err)
	return d
}

func (r *resolver) int(flag string) int {
	if v, ok := r.fromEnv(flag); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			r.fail(flag, fmt.Errorf("%q is not a whole number", v))
		}
		return n
	}
	n, err := r.fs.GetInt(flag)
	r.lookupErr(flag, err)
	return n
}

func (r *resolver) byteSize(flag string) int64 {
	if v, ok := r.fromEnv(flag); ok {
		n, err := parseByteSize(v)
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

// splitComma cuts a comma-separated list.
func splitComma(s string) []string { return strings.Split(s, ",") }

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
