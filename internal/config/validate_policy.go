// SPDX-License-Identifier: Apache-2.0

package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// validatePolicy checks the read policy.
func (c Config) validatePolicy(targets []string) []error {
	var errs []error
	errs = appendIf(errs, positiveDuration(flagCallTimeout, c.CallTimeout))
	if c.ListCacheTTL < 0 || c.RunCacheSize < 0 {
		errs = append(errs, fmt.Errorf("--%s and --%s must not be negative: 0 disables them", flagListCacheTTL, flagRunCacheSize))
	}
	if c.UpstreamAuth != UpstreamAuthService && c.UpstreamAuth != UpstreamAuthPassthrough {
		errs = append(errs, fmt.Errorf("--%s %q: use service or passthrough", flagUpstreamAuth, c.UpstreamAuth))
	}
	if c.MetricsListen != "" {
		if _, err := SplitListen(c.MetricsListen); err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", flagMetricsListen, err))
		} else if c.MetricsListen == c.Listen {
			errs = append(errs, fmt.Errorf("--%s must differ from --listen", flagMetricsListen))
		}
	}
	errs = appendIf(errs, positiveNumber(flagUpstreamConcurrency, int64(c.UpstreamConcurrency)))
	switch c.UpstreamCompression {
	case UpstreamCompressionAuto, UpstreamCompressionGzip, UpstreamCompressionIdentity:
	default:
		errs = append(errs, fmt.Errorf("--%s %q: use auto, gzip or identity", flagUpstreamCompression, c.UpstreamCompression))
	}
	if c.TextContent != TextContentContract && c.TextContent != TextContentJSON {
		errs = append(errs, fmt.Errorf("--%s %q: use contract or json", flagTextContent, c.TextContent))
	}
	if c.ResourceLinks != ResourceLinksContract && c.ResourceLinks != ResourceLinksOmit {
		errs = append(errs, fmt.Errorf("--%s %q: use contract or omit", flagResourceLinks, c.ResourceLinks))
	}
	if c.CallerConcurrency < 0 {
		errs = append(errs, fmt.Errorf("--%s must not be negative (0 turns the limit off)", flagCallerConcurrency))
	}
	if c.RateLimit < 0 || c.RateBurst < 0 {
		errs = append(errs, fmt.Errorf("--%s and --%s must not be negative", flagRateLimit, flagRateBurst))
	}
	errs = append(errs, c.validateSharedState()...)
	for _, t := range c.DisabledTargets {
		if !slices.Contains(targets, t) {
			errs = append(errs, fmt.Errorf("--%s %q is not a dagu_read target (%v)", flagDisableTarget, t, targets))
		}
	}
	return errs
}

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

// maxSharedStateTimeout bounds --shared-state-timeout: shared state only
// helps while it answers much faster than Dagu.
const maxSharedStateTimeout = 5 * time.Second

// validateSharedState checks the shared-state settings; the URL's hosts,
// path and options are the shared state's to check when it opens.
func (c Config) validateSharedState() []error {
	if c.SharedStateURL == "" {
		switch {
		case c.SharedStatePasswordFile != "":
			return []error{fmt.Errorf("--%s needs --%s", flagSharedStatePassword, flagSharedState)}
		case c.SharedStateSentinelPasswordFile != "":
			return []error{fmt.Errorf("--%s needs --%s", flagSharedStateSentinel, flagSharedState)}
		}
		return nil
	}
	var errs []error
	if c.SharedStateTimeout < 0 || c.SharedStateTimeout > maxSharedStateTimeout {
		errs = append(errs, fmt.Errorf("--%s must be above 0 and at most %s, got %s", flagSharedStateTimeout, maxSharedStateTimeout, c.SharedStateTimeout))
	}
	scheme, rest, ok := strings.Cut(c.SharedStateURL, "://")
	if !ok || !slices.Contains(sharedStateSchemes, scheme) || rest == "" || strings.ContainsAny(rest[:1], "/?#") {
		errs = append(errs, fmt.Errorf("--%s %q: use redis://host:port[/db], redis+cluster://host:port[,host:port...] or redis+sentinel://host:port[,host:port...]/master-name[/db] (rediss for TLS)", flagSharedState, redact.URL(c.SharedStateURL)))
	}
	if c.SharedStateSentinelPasswordFile != "" && !strings.HasSuffix(scheme, "+sentinel") {
		errs = append(errs, fmt.Errorf("--%s is for a redis+sentinel:// URL's sentinels", flagSharedStateSentinel))
	}
	return errs
}

// sharedStateSchemes are the URL schemes of --shared-state.
var sharedStateSchemes = []string{"redis", "rediss", "redis+cluster", "rediss+cluster", "redis+sentinel", "rediss+sentinel"}
