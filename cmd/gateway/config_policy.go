// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/upstream"
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
	flagMetricsListen       = "metrics-listen"
	flagUpstreamAuth        = "upstream-auth"
	flagListCacheTTL        = "list-cache-ttl"
	flagRunCacheSize        = "run-cache-size"
)

// Upstream authentication modes (--upstream-auth).
const (
	upstreamAuthService     = "service"
	upstreamAuthPassthrough = "passthrough"
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
	fs.String(flagUpstreamAuth, upstreamAuthService, flagHelp(flagUpstreamAuth,
		"service: every caller reads Dagu with the gateway's key; passthrough: each HTTP caller sends its own Dagu API key as Authorization: Bearer <key> and Dagu's roles decide what it sees (no service key or inbound tokens then; stdio still uses DAGU_API_KEY)", ""))
	fs.Duration(flagListCacheTTL, upstream.DefaultListCacheTTL, flagHelp(flagListCacheTTL,
		"longest a dags, runs or dag answer is reused for identical reads of one credential (the staleness an agent may see in lists); 0 disables the reuse (identical concurrent reads still share one call)", ""))
	runCache := byteSizeValue(upstream.DefaultRunCacheBytes)
	fs.Var(&runCache, flagRunCacheSize, flagHelp(flagRunCacheSize,
		"memory for answers of finished runs (details, stream presence, log windows), which never change; 0 disables the run cache", ""))
	fs.String(flagMetricsListen, "", flagHelp(flagMetricsListen,
		"host:port of a separate listener serving only /metrics, without inbound tokens (for scrapers inside the cluster); unset keeps /metrics on --listen behind the tokens", "none"))
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
	c.MetricsListen = r.string(flagMetricsListen)
	c.UpstreamAuth = strings.ToLower(r.string(flagUpstreamAuth))
	c.ListCacheTTL = r.duration(flagListCacheTTL)
	c.RunCacheSize = r.byteSize(flagRunCacheSize)
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
	if c.ListCacheTTL < 0 || c.RunCacheSize < 0 {
		errs = append(errs, fmt.Errorf("--%s and --%s must not be negative: 0 disables them", flagListCacheTTL, flagRunCacheSize))
	}
	if c.UpstreamAuth != upstreamAuthService && c.UpstreamAuth != upstreamAuthPassthrough {
		errs = append(errs, fmt.Errorf("--%s %q: use service or passthrough", flagUpstreamAuth, c.UpstreamAuth))
	}
	if c.MetricsListen != "" {
		if _, err := splitListen(c.MetricsListen); err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flagMetricsListen, err))
		} else if c.MetricsListen == c.Listen {
			errs = append(errs, fmt.Errorf("--%s must differ from --listen", flagMetricsListen))
		}
	}
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

// Passthrough reports whether HTTP callers read Dagu with their own keys.
func (c Config) Passthrough() bool { return c.UpstreamAuth == upstreamAuthPassthrough }

// validatePassthrough checks what passthrough excludes: the caller's
// Authorization header carries its Dagu key, so it cannot also carry an
// inbound token, and there is no service key to configure.
func (c Config) validatePassthrough(mode Mode) []error {
	if !c.Passthrough() || mode != ModeServe {
		return nil
	}
	var errs []error
	if len(c.AuthTokens) > 0 || c.AuthTokenFile != "" {
		errs = append(errs, errors.New("--upstream-auth passthrough takes the Dagu key from each caller's Authorization header: inbound tokens (--auth-token, --auth-token-file) cannot be used with it"))
	}
	if c.DaguAPIKey != "" || c.DaguAPIKeyFile != "" {
		errs = append(errs, errors.New("--upstream-auth passthrough uses each caller's own Dagu key: unset --dagu-api-key and --dagu-api-key-file"))
	}
	return errs
}
