package main

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// Flags of the read policy: how long one read may take, what a text-only
// client gets, and how the gateway protects Dagu.
const (
	flagCallTimeout         = "call-timeout"
	flagTextContent         = "text-content"
	flagUpstreamConcurrency = "upstream-concurrency"
	flagRateLimit           = "rate-limit"
	flagRateBurst           = "rate-burst"
	flagDisableTarget       = "disable-target"
)

// Defaults of the read policy.
const (
	defaultCallTimeout = 30 * time.Second
	defaultTextContent = readtool.TextContentContract
)

func registerPolicyFlags(fs *pflag.FlagSet) {
	fs.Duration(flagCallTimeout, defaultCallTimeout, flagHelp(flagCallTimeout,
		"time limit for one whole read, all its calls to Dagu included (each call also has --upstream-timeout)", ""))
	fs.String(flagTextContent, defaultTextContent, flagHelp(flagTextContent,
		"text content of a successful read: contract (the contract's text) or json (adds the data, cut at 64 KiB, for clients that pass only text to the model)", ""))
	fs.Int(flagUpstreamConcurrency, restclient.DefaultConcurrency, flagHelp(flagUpstreamConcurrency,
		"requests to Dagu in flight at once; as many more may wait within their deadline, beyond that a read is refused with retryAfterMs", ""))
	fs.String(flagRateLimit, "0", flagHelp(flagRateLimit,
		"reads per second each caller may make (a token bucket); 0 turns the limit off", ""))
	fs.Int(flagRateBurst, 0, flagHelp(flagRateBurst,
		"reads a caller may make at once above --rate-limit", "twice the rate"))
	fs.StringArray(flagDisableTarget, nil, flagHelp(flagDisableTarget,
		"dagu_read target to switch off (it leaves the tool description and answers unsupported_read_target); repeat for several (env: comma-separated list)", "none"))
}

// resolvePolicy fills the read policy fields of c.
func resolvePolicy(r *resolver, c *Config) {
	c.CallTimeout = r.duration(flagCallTimeout)
	c.TextContent = r.string(flagTextContent)
	c.UpstreamConcurrency = r.int(flagUpstreamConcurrency)
	c.RateBurst = r.int(flagRateBurst)
	c.DisabledTargets = r.list(flagDisableTarget, splitComma)
	rate := r.string(flagRateLimit)
	n, err := strconv.ParseFloat(rate, 64)
	if err != nil {
		r.fail(flagRateLimit, fmt.Errorf("%q is not a number of reads per second", rate))
	}
	c.RateLimit = n
}

// validatePolicy checks the read policy.
func (c Config) validatePolicy() []error {
	var errs []error
	errs = appendIf(errs, positiveDuration(flagCallTimeout, c.CallTimeout))
	errs = appendIf(errs, positiveNumber(flagUpstreamConcurrency, int64(c.UpstreamConcurrency)))
	if c.TextContent != readtool.TextContentContract && c.TextContent != readtool.TextContentJSON {
		errs = append(errs, fmt.Errorf("--%s %q: use contract or json", flagTextContent, c.TextContent))
	}
	if c.RateLimit < 0 || c.RateBurst < 0 {
		errs = append(errs, fmt.Errorf("--%s and --%s must not be negative", flagRateLimit, flagRateBurst))
	}
	known := readtool.Definition().InputSchema.(map[string]any)["properties"].(map[string]any)["target"].(map[string]any)["enum"].([]string)
	for _, t := range c.DisabledTargets {
		if !slices.Contains(known, t) {
			errs = append(errs, fmt.Errorf("--%s %q is not a dagu_read target (%v)", flagDisableTarget, t, known))
		}
	}
	return errs
}
