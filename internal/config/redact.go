// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/redact"
)

// setOrUnset describes a secret without revealing it.
func setOrUnset(secret bool) string {
	if secret {
		return "set"
	}
	return "unset"
}

// redactedFields lists the configuration as key/value pairs with secrets
// replaced by "set" or "unset". Token files are named, since the path is
// not secret, but their content is never read here.
func (c Config) redactedFields() []slog.Attr {
	return []slog.Attr{
		slog.String("dagu_url", c.DaguURL),
		slog.String("dagu_api_key", setOrUnset(c.DaguAPIKey != "")),
		slog.String("dagu_api_key_file", c.DaguAPIKeyFile),
		slog.String("dagu_ca_file", c.DaguCAFile),
		slog.Bool("dagu_insecure_skip_verify", c.DaguInsecureSkipVerify),
		slog.String("instances", c.InstancesFile),
		slog.String("listen", c.Listen),
		slog.String("auth_tokens", setOrUnset(len(c.AuthTokens) > 0)),
		slog.String("auth_token_file", c.AuthTokenFile),
		slog.Any("allowed_hosts", c.AllowedHosts),
		slog.String("public_url", c.PublicURL),
		slog.Any("trusted_proxies", c.TrustedProxies),
		slog.String("client_ip_header", c.ClientIPHeader),
		slog.Duration("trust_recheck", c.TrustRecheck),
		slog.String("oidc_issuer", c.OIDCIssuer),
		slog.Any("oidc_audiences", c.OIDCAudiences),
		slog.String("oidc_groups_claim", c.OIDCGroupsClaim),
		slog.Any("oidc_scopes", c.OIDCScopes),
		slog.String("access_policy", c.AccessPolicyFile),
		slog.Duration("upstream_timeout", c.UpstreamTimeout),
		slog.String("max_response_bytes", FormatByteSize(c.MaxResponseBytes)),
		slog.String("upstream_body_budget", FormatByteSize(c.UpstreamBodyBudget)),
		slog.String("memory_budget", FormatByteSize(c.MemoryBudget)),
		slog.String("max_answer_bytes", FormatByteSize(c.MaxAnswerBytes)),
		slog.String("reference_dir", c.ReferenceDir),
		slog.Duration("cache_ttl", c.CacheTTL),
		slog.Duration("call_timeout", c.CallTimeout),
		slog.String("text_content", c.TextContent),
		slog.String("resource_links", c.ResourceLinks),
		slog.Int("upstream_concurrency", c.UpstreamConcurrency),
		slog.Int("caller_concurrency", c.CallerConcurrency),
		slog.String("upstream_compression", c.UpstreamCompression),
		slog.Float64("rate_limit", c.RateLimit),
		slog.Int("rate_burst", c.RateBurst),
		slog.Any("disabled_targets", c.DisabledTargets),
		slog.String("metrics_listen", c.MetricsListen),
		slog.String("upstream_auth", c.UpstreamAuth),
		slog.Duration("list_cache_ttl", c.ListCacheTTL),
		slog.String("run_cache_size", FormatByteSize(c.RunCacheSize)),
		slog.String("shared_state", redact.URL(c.SharedStateURL)),
		slog.String("shared_state_password_file", c.SharedStatePasswordFile),
		slog.String("shared_state_sentinel_password_file", c.SharedStateSentinelPasswordFile),
		slog.Duration("shared_state_timeout", c.SharedStateTimeout),
		slog.Any("workbook_roots", c.WorkbookRoots),
		slog.String("workbook_max_bytes", FormatByteSize(c.WorkbookMaxBytes)),
		slog.Int("workbook_max_rows", c.WorkbookMaxRows),
		slog.Int("workbook_max_sheets", c.WorkbookMaxSheets),
		slog.String("workbook_max_memory", FormatByteSize(c.WorkbookMaxMemory)),
		slog.Int("workbook_concurrency", c.WorkbookConcurrency),
		slog.String("log_level", c.LogLevel),
		slog.String("log_format", c.LogFormat),
		slog.Duration("shutdown_timeout", c.ShutdownTimeout),
		slog.String("gc_heap_floor", FormatByteSize(c.GCHeapFloor)),
		slog.String("memory_limit", c.MemoryLimit),
	}
}

// LogValue implements slog.LogValuer: logging a Config prints a group of
// its settings with the API key and inbound tokens shown as set/unset.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(c.redactedFields()...)
}

// String renders the configuration as space-separated key=value pairs,
// with secrets redacted.
func (c Config) String() string {
	var b strings.Builder
	for i, a := range c.redactedFields() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%v", a.Key, a.Value)
	}
	return b.String()
}

// GoString makes %#v print the redacted form too.
func (c Config) GoString() string { return "Config{" + c.String() + "}" }
