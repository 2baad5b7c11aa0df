// SPDX-License-Identifier: Apache-2.0

package config

import (
	"path/filepath"
	"slices"
	"strings"
)

// Kind is the type of a setting's value, which decides how its flag is
// registered and how its environment variable is parsed.
type Kind int

// The kinds of settings.
const (
	// KindString is a plain string, trimmed.
	KindString Kind = iota
	// KindBool is true or false.
	KindBool
	// KindDuration is a Go duration such as 15s or 1h30m.
	KindDuration
	// KindInt is a whole number.
	KindInt
	// KindSize is a byte count, plain or with a binary unit (32MiB).
	KindSize
	// KindList is a repeatable flag; its environment variable is one
	// string cut by the setting's separator.
	KindList
	// KindNumber is a decimal number, registered as a string flag.
	KindNumber
)

// Setting is one row of the settings table: everything the gateway, its
// help, its documentation and its deployment files say about one setting.
type Setting struct {
	// Group is what the setting is for; help and the configuration
	// reference list the settings by group.
	Group Group
	// Flag is the command-line flag, without dashes.
	Flag string
	// Env is the environment variable that supplies the flag when it is
	// not given on the command line.
	Env string
	// Kind is the type of the value.
	Kind Kind
	// Default is the default as it would be written on the command line;
	// empty when the zero value is the default.
	Default string
	// ZeroDefault describes the default in help text when pflag would not
	// print it (an empty string, a zero number, false, no items).
	ZeroDefault string
	// Help is the flag's help text, without the environment variable and
	// the default, which are appended from the fields above.
	Help string
	// Doc is the configuration reference's Markdown text of the setting
	// (docs/configuration.md, generated); it may say more than Help.
	Doc string
	// Chart is the Helm chart value (dotted path in values.yaml) that sets
	// the setting in a cluster.
	Chart string
	// Modes are the subcommands that use the setting; only they accept
	// its flag.
	Modes []Mode
	// Secret marks a credential: redacted everywhere, and deployed only
	// in its file form.
	Secret bool
	// split cuts the environment form of a list.
	split func(string) []string
	// field points at the Config field the setting fills.
	field func(*Config) any
}

// UsedBy reports whether the subcommand mode uses the setting.
func (s Setting) UsedBy(mode Mode) bool { return slices.Contains(s.Modes, mode) }

// Settings returns the settings table, grouped as help lists it.
// The rows are copies: changing them changes nothing.
func Settings() []Setting {
	out := make([]Setting, len(settings))
	for i, s := range settings {
		out[i] = s.clone()
	}
	return out
}

// Lookup returns a copy of the row of a flag.
func Lookup(flag string) (Setting, bool) {
	i := slices.IndexFunc(settings, func(s Setting) bool { return s.Flag == flag })
	if i < 0 {
		return Setting{}, false
	}
	return settings[i].clone(), true
}

// clone copies a row, its list of subcommands included, which rows share.
func (s Setting) clone() Setting {
	s.Modes = slices.Clone(s.Modes)
	return s
}

// envOf names the environment variable of a flag, for messages.
func envOf(flag string) string {
	s, _ := Lookup(flag)
	return s.Env
}

// splitComma cuts a comma-separated list.
func splitComma(s string) []string { return strings.Split(s, ",") }

// Which subcommands use which settings.
var (
	// modesDagu connect to the Dagu server the operator names; demo
	// starts its own.
	modesDagu = []Mode{ModeServe, ModeStdio, ModeDoctor}
	// modesUpstream call Dagu, the demo's included.
	modesUpstream = []Mode{ModeServe, ModeStdio, ModeDemo, ModeDoctor}
	// modesRead serve dagu_read to clients.
	modesRead = []Mode{ModeServe, ModeStdio, ModeDemo}
	// modesHTTP open the HTTP front door.
	modesHTTP = []Mode{ModeServe, ModeDemo}
)

// FlagMemoryLimit is the soft memory limit flag, which the command applies
// only where it is registered.
const FlagMemoryLimit = flagMemoryLimit

// FlagListen is the listen address flag, which healthcheck shares with
// serve and demo.
const FlagListen = "listen"

// Flag names used in validation messages.
const (
	flagDaguURL             = "dagu-url"
	flagDaguAPIKey          = "dagu-api-key"
	flagDaguAPIKeyFile      = "dagu-api-key-file"
	flagInstances           = "instances"
	flagAuthToken           = "auth-token"
	flagAuthTokenFile       = "auth-token-file"
	flagAllowedHost         = "allowed-host"
	flagPublicURL           = "public-url"
	flagTrustedProxies      = "trusted-proxies"
	flagClientIPHeader      = "client-ip-header"
	flagTrustRecheck        = "trust-recheck"
	flagUpstreamTimeout     = "upstream-timeout"
	flagMaxResponseBytes    = "max-response-bytes"
	flagUpstreamBodyBudget  = "upstream-body-budget"
	flagMemoryBudget        = "memory-budget"
	flagMaxAnswerBytes      = "max-answer-bytes"
	flagUpstreamCompression = "upstream-compression"
	flagReferenceDir        = "reference-dir"
	flagCacheTTL            = "cache-ttl"
	flagCallTimeout         = "call-timeout"
	flagTextContent         = "text-content"
	flagResourceLinks       = "resource-links"
	flagUpstreamConcurrency = "upstream-concurrency"
	flagCallerConcurrency   = "caller-concurrency"
	flagRateLimit           = "rate-limit"
	flagRateBurst           = "rate-burst"
	flagDisableTarget       = "disable-target"
	flagMetricsListen       = "metrics-listen"
	flagUpstreamAuth        = "upstream-auth"
	flagListCacheTTL        = "list-cache-ttl"
	flagRunCacheSize        = "run-cache-size"
	flagWorkbookRoot        = "workbook-root"
	flagWorkbookMaxBytes    = "workbook-max-bytes"
	flagWorkbookMaxRows     = "workbook-max-rows"
	flagWorkbookMaxSheets   = "workbook-max-sheets"
	flagWorkbookMaxMemory   = "workbook-max-memory"
	flagWorkbookConcurrency = "workbook-concurrency"
	flagShutdownTimeout     = "shutdown-timeout"
	flagGCHeapFloor         = "gc-heap-floor"
	flagMemoryLimit         = "memory-limit"
	flagSharedState         = "shared-state"
	flagSharedStatePassword = "shared-state-password-file"
	flagSharedStateTimeout  = "shared-state-timeout"
	flagSharedStateSentinel = "shared-state-sentinel-password-file"
	flagOIDCIssuer          = "oidc-issuer"
	flagOIDCAudience        = "oidc-audience"
	flagOIDCGroupsClaim     = "oidc-groups-claim"
	flagOIDCScope           = "oidc-scope"
	flagAccessPolicy        = "access-policy"
)

// Defaults that other packages own too: the REST client's concurrency, the
// adapter's list cache and run cache, the read tool's text content. The
// command's tests check that they agree.
const (
	// DefaultUpstreamConcurrency is restclient.DefaultConcurrency.
	DefaultUpstreamConcurrency = "32"
	// DefaultListCacheTTL is upstream.DefaultListCacheTTL.
	DefaultListCacheTTL = "1s"
	// DefaultRunCacheSize is upstream.DefaultRunCacheBytes.
	DefaultRunCacheSize = "32MiB"
	// DefaultMaxAnswerBytes is readtool.DefaultMaxAnswerBytes.
	DefaultMaxAnswerBytes = "4MiB"
	// DefaultGCHeapFloor is the heap goal kept while the live heap is small
	// (see BENCHMARKS.md: the collector otherwise runs every few requests).
	DefaultGCHeapFloor = "20MiB"
	// MemoryLimitAuto is --memory-limit's default: the limit derived from
	// the memory settings.
	MemoryLimitAuto = "auto"
	// MemoryLimitOff is --memory-limit's value that sets no limit (0 too).
	MemoryLimitOff = "off"
)

// settings is the table. The defaults of workbook-max-memory and
// workbook-concurrency keep two reads of hostile workbooks well inside the
// shipped 512 MiB pod limit.
var settings = []Setting{
	// Dagu server: which one and how to reach it.
	{Group: GroupDagu, Flag: flagDaguURL, Env: "DAGU_URL", Kind: KindString, ZeroDefault: "none", Chart: "dagu.url", Modes: modesDagu,
		Help:  "Dagu server base URL, including any base path (REST calls go to <url>/api/v1 on Dagu 2.x, <url>/api/v2 on 1.x, detected); required for serve, stdio and doctor",
		Doc:   "Dagu server base URL, including any base path; REST calls go to `<url>/api/v1` on Dagu 2.x and `<url>/api/v2` on 1.x (detected). Required for serve, stdio and doctor unless `--instances` names the servers.",
		field: func(c *Config) any { return &c.DaguURL }},
	{Group: GroupDagu, Flag: flagDaguAPIKey, Env: "DAGU_API_KEY", Kind: KindString, ZeroDefault: "none", Chart: "secret.daguApiKeyKey", Modes: modesUpstream, Secret: true,
		Help:  "Dagu API key sent as a bearer token; prefer --dagu-api-key-file, which keeps the key out of process listings",
		Doc:   "Dagu API key, sent as a bearer token. Prefer `--dagu-api-key-file`, which keeps the key out of process listings.",
		field: func(c *Config) any { return &c.DaguAPIKey }},
	{Group: GroupDagu, Flag: flagDaguAPIKeyFile, Env: "DAGU_API_KEY_FILE", Kind: KindString, ZeroDefault: "none", Chart: "secret.daguApiKeyKey", Modes: modesDagu,
		Help:  "file holding the Dagu API key, re-read when it changes; exclusive with --dagu-api-key",
		Doc:   "File holding the Dagu API key; read again when it changes, so rotating the secret needs no restart. Exclusive with `--dagu-api-key`.",
		field: func(c *Config) any { return &c.DaguAPIKeyFile }},
	{Group: GroupDagu, Flag: "dagu-ca-file", Env: "DAGU_CA_FILE", Kind: KindString, ZeroDefault: "none", Chart: "dagu.ca", Modes: modesDagu,
		Help:  "PEM file of extra CA certificates trusted for the Dagu server",
		Doc:   "PEM file of extra CA certificates trusted for Dagu's TLS certificate.",
		field: func(c *Config) any { return &c.DaguCAFile }},
	{Group: GroupDagu, Flag: "dagu-insecure-skip-verify", Env: "DAGU_INSECURE_SKIP_VERIFY", Kind: KindBool, ZeroDefault: "false", Chart: "dagu.insecureSkipVerify", Modes: modesDagu,
		Help:  "skip TLS certificate verification of the Dagu server (unsafe; for testing only)",
		Doc:   "Skip TLS verification (testing only; logged as a loud warning).",
		field: func(c *Config) any { return &c.DaguInsecureSkipVerify }},
	{Group: GroupDagu, Flag: flagInstances, Env: "GATEWAY_INSTANCES_FILE", Kind: KindString, ZeroDefault: "none: one Dagu, from --dagu-url", Chart: "instances", Modes: []Mode{ModeServe, ModeStdio, ModeDoctor},
		Help:  "YAML file of named Dagu servers (name, url, apiKeyFile or upstreamAuth: passthrough, caFile, insecureSkipVerify, upstreamTimeout, upstreamCompression), each served at /dagu/<name>/mcp (/mcp serves the one named default); read again when it changes or on SIGHUP, a broken version keeping the last good one; exclusive with --dagu-url, --dagu-api-key[-file], --dagu-ca-file and --dagu-insecure-skip-verify; stdio serves one (--instance NAME, else the one named default), doctor checks each (--instance NAME: one)",
		Doc:   "YAML file of named Dagu servers (`name`, `url`, `apiKeyFile` or `upstreamAuth: passthrough`, `caFile`, `insecureSkipVerify`, `upstreamTimeout`, `upstreamCompression`), each served at `/dagu/<name>/mcp` (`/mcp` serves the one named `default`); reloaded on change or SIGHUP, a broken version keeps the last good one. It replaces `--dagu-url`, `--dagu-api-key[-file]`, `--dagu-ca-file` and `--dagu-insecure-skip-verify`. `stdio --instance NAME` serves one (without it, the one named `default`); `doctor` checks each (`--instance NAME`: one).",
		field: func(c *Config) any { return &c.InstancesFile }},
	{Group: GroupDagu, Flag: flagUpstreamTimeout, Env: "GATEWAY_UPSTREAM_TIMEOUT", Kind: KindDuration, Default: "15s", Chart: "config.upstreamTimeout", Modes: modesUpstream,
		Help:  "time limit for each call to Dagu",
		Doc:   "Deadline of each call to Dagu, retries included.",
		field: func(c *Config) any { return &c.UpstreamTimeout }},
	{Group: GroupDagu, Flag: flagUpstreamCompression, Env: "GATEWAY_UPSTREAM_COMPRESSION", Kind: KindString, Default: UpstreamCompressionAuto, Chart: "config.upstreamCompression", Modes: modesUpstream,
		Help:  "whether Dagu is asked to gzip its answers: auto (identity for a Dagu at localhost or a loopback or private IP address, gzip otherwise), gzip or identity",
		Doc:   "Whether Dagu is asked to gzip its answers: `auto` asks a Dagu at `localhost` or a loopback or private IP address for `identity` and any other for `gzip`; `gzip` or `identity` always ask for that. A Dagu in the same cluster named by its DNS name wants `identity`.",
		field: func(c *Config) any { return &c.UpstreamCompression }},

	// HTTP server and who may call it.
	{Group: GroupHTTP, Flag: FlagListen, Env: "GATEWAY_LISTEN", Kind: KindString, Default: "127.0.0.1:8090", Chart: "config.listen", Modes: []Mode{ModeServe, ModeDemo, ModeHealthcheck},
		Help:  "host:port of the HTTP server (serve, demo); a non-loopback address requires an inbound token",
		Doc:   "`host:port` the HTTP server of serve and demo listens on, and the one healthcheck probes. An address that is not loopback requires inbound tokens (`--auth-token`, `--auth-token-file`) or `--upstream-auth passthrough`.",
		field: func(c *Config) any { return &c.Listen }},
	{Group: GroupHTTP, Flag: flagAuthToken, Env: "GATEWAY_AUTH_TOKENS", Kind: KindList, ZeroDefault: "none", Chart: "secret.authTokensKey", Modes: modesHTTP, Secret: true, split: splitComma,
		Help:  "inbound bearer token accepted on /mcp and /metrics; repeat for several (env: comma-separated list)",
		Doc:   "Inbound bearer token clients must send on `/mcp` and `/metrics`; repeat the flag for several (the variable is a comma-separated list). Required when `--listen` is not loopback. At least 16 characters.",
		field: func(c *Config) any { return &c.AuthTokens }},
	{Group: GroupHTTP, Flag: flagAuthTokenFile, Env: "GATEWAY_AUTH_TOKEN_FILE", Kind: KindString, ZeroDefault: "none", Chart: "secret.authTokensKey", Modes: modesHTTP,
		Help:  "file of inbound bearer tokens, one per line; blank lines and lines starting with # are ignored",
		Doc:   "Inbound tokens, one per line (`name:token` names the caller; blank lines and lines starting with `#` are ignored); read again when the file changes, so rotation needs no restart.",
		field: func(c *Config) any { return &c.AuthTokenFile }},
	{Group: GroupHTTP, Flag: flagUpstreamAuth, Env: "GATEWAY_UPSTREAM_AUTH", Kind: KindString, Default: UpstreamAuthService, Chart: "config.upstreamAuth", Modes: modesHTTP,
		Help:  "service: every caller reads Dagu with the gateway's key; passthrough: each HTTP caller sends its own Dagu API key as Authorization: Bearer <key> and Dagu's roles decide what it sees (no service key or inbound tokens then; stdio still uses DAGU_API_KEY)",
		Doc:   "`service`: every caller reads Dagu with the gateway's key. `passthrough`: each HTTP caller sends its own Dagu API key as `Authorization: Bearer <key>`, which is forwarded, and Dagu's roles decide what it sees; no service key or inbound tokens then (stdio still uses `DAGU_API_KEY`).",
		field: func(c *Config) any { return &c.UpstreamAuth }},
	{Group: GroupHTTP, Flag: flagTrustRecheck, Env: "GATEWAY_TRUST_RECHECK", Kind: KindDuration, Default: "1m", Chart: "config.trustRecheck", Modes: []Mode{ModeServe},
		Help:  "passthrough: how long Dagu's acceptance of a caller's key, and its word on what the key may see (role, workspaces), are used as they are; a key in use is then checked again in the background, and no cached answer is served to a key Dagu has not confirmed within this period",
		Doc:   "Passthrough only. How long Dagu's acceptance of a caller's key, and its word on what the key may see (`/auth/me`: role and workspace access), are used as they are. A key in use is then checked again in the background; a refusal ends it at once. Every cached answer a key reads is tied to that word: none is served to a key Dagu has not confirmed within this period, and when the word changes (Dagu narrowed the key) or Dagu answers 403 or 404 for anything it showed the key before (a run, a DAG, a wiki page, a workspace), the key's cached answers are dropped on every replica. See [security](security.md#narrowed-grants).",
		field: func(c *Config) any { return &c.TrustRecheck }},
	{Group: GroupHTTP, Flag: flagAllowedHost, Env: "GATEWAY_ALLOWED_HOSTS", Kind: KindList, ZeroDefault: "none", Chart: "config.allowedHosts", Modes: modesHTTP, split: splitComma,
		Help:  "extra Host/Origin value accepted (DNS-rebinding allow-list), as host or host:port; repeat for several (env: comma-separated list)",
		Doc:   "Extra `Host`/`Origin` value accepted (DNS-rebinding allow-list), as `host` or `host:port`; repeat the flag for several (the variable is a comma-separated list).",
		field: func(c *Config) any { return &c.AllowedHosts }},
	{Group: GroupHTTP, Flag: flagPublicURL, Env: "GATEWAY_PUBLIC_URL", Kind: KindString, ZeroDefault: "none", Chart: "config.publicURL", Modes: modesHTTP,
		Help:  "URL clients reach the gateway at, without /mcp (https://gw.example.com); names the resource in the OAuth protected-resource metadata and 401 challenges. Unset: the request's Host when the Host check applies (loopback listen or --allowed-host), else the address the connection arrived on, never an unchecked Host",
		Doc:   "URL clients reach the gateway at, without `/mcp` (`https://gw.example.com`): the `resource` of the OAuth protected-resource metadata and the `resource_metadata` of 401 challenges. An absolute http(s) URL without user information, query or fragment. Unset: the request's `Host` where the Host check applies (loopback listener or `--allowed-host`), otherwise the address the connection arrived on; never an unchecked `Host`. The scheme is then `https` on a TLS connection, or what a `--trusted-proxies` peer writes in `X-Forwarded-Proto` (`Forwarded`'s `proto=` with `--client-ip-header Forwarded`), else `http`: any other client's header is ignored. Behind a TLS proxy, set it.",
		field: func(c *Config) any { return &c.PublicURL }},
	{Group: GroupHTTP, Flag: flagTrustedProxies, Env: "GATEWAY_TRUSTED_PROXIES", Kind: KindList, ZeroDefault: "none", Chart: "config.trustedProxies", Modes: []Mode{ModeServe}, split: splitComma,
		Help:  "proxy or ingress network (CIDR) or address whose --client-ip-header names the client, taken as the rightmost hop not in these networks; repeat for several (env: comma-separated list). Unset: the client is the TCP peer, so every caller behind one proxy shares its address",
		Doc:   "Networks (`10.0.0.0/8`, `fd00::/8`) or addresses of the proxies or ingress in front of the gateway. A request whose TCP peer is in them is from the rightmost address of the header `--client-ip-header` names (`X-Forwarded-For`, or `Forwarded`'s `for=`) that is not in them; the proxies must append to that header (nearly all append to `X-Forwarded-For`), and it must be named: the gateway never picks a header itself. That address is what the passthrough lane of unknown keys and unverified callers' limits count by. Unset: the TCP peer, so every caller behind one proxy shares its address.",
		field: func(c *Config) any { return &c.TrustedProxies }},
	{Group: GroupHTTP, Flag: flagClientIPHeader, Env: "GATEWAY_CLIENT_IP_HEADER", Kind: KindString, ZeroDefault: "none", Chart: "config.clientIPHeader", Modes: []Mode{ModeServe},
		Help:  "the one forwarding header a --trusted-proxies peer's client address is read from: X-Forwarded-For or Forwarded (the one your proxies append to); the other is never read. Required with --trusted-proxies; unset: the client is the TCP peer",
		Doc:   "The one forwarding header the client's address is read from when the TCP peer is in `--trusted-proxies`: `X-Forwarded-For` or `Forwarded` (its `for=`), whichever your proxies append to. The other header is never read, whatever it says: a proxy that appends only `Forwarded` passes a client's own `X-Forwarded-For` through, and reading that would let the client pick the address it is counted by. Required with `--trusted-proxies`, and refused without it; unset, the client is the TCP peer.",
		field: func(c *Config) any { return &c.ClientIPHeader }},
	{Group: GroupHTTP, Flag: flagMetricsListen, Env: "GATEWAY_METRICS_LISTEN", Kind: KindString, ZeroDefault: "none", Chart: "config.metricsListen", Modes: modesHTTP,
		Help:  "host:port of a separate listener serving only /metrics, without inbound tokens (for scrapers inside the cluster); unset keeps /metrics on --listen behind the tokens",
		Doc:   "A separate `host:port` serving only `/metrics`, without inbound tokens (for scrapers inside the cluster). Unset, `/metrics` stays on `--listen` behind the tokens.",
		field: func(c *Config) any { return &c.MetricsListen }},
	{Group: GroupHTTP, Flag: flagShutdownTimeout, Env: "GATEWAY_SHUTDOWN_TIMEOUT", Kind: KindDuration, Default: "10s", Chart: "config.shutdownTimeout", Modes: modesHTTP,
		Help:  "time allowed for in-flight requests to finish on shutdown",
		Doc:   "Time in-flight requests get to finish on shutdown (SIGINT, SIGTERM).",
		field: func(c *Config) any { return &c.ShutdownTimeout }},

	// Sign-in: people sign in with an OpenID provider, the access policy
	// decides what each one reads.
	{Group: GroupSignIn, Flag: flagOIDCIssuer, Env: "GATEWAY_OIDC_ISSUER", Kind: KindString, ZeroDefault: "none: no sign-in", Chart: "oidc.issuer", Modes: modesHTTP,
		Help:  "issuer URL of the OpenID provider people sign in with (https://, http only on a loopback address); the gateway verifies the provider's JWT access tokens at the MCP endpoints and names the provider in its protected-resource metadata; needs --access-policy; static tokens keep working beside it; not with --upstream-auth passthrough",
		Doc:   "Issuer URL of the OpenID provider people sign in with, exactly as it writes `iss` in its tokens (`https://`; `http://` only on a loopback address, for tests and local providers). Its discovery document gives its keys. The gateway is the provider's resource server: MCP clients sign in themselves, starting from the protected-resource metadata of `/mcp` and of each `/dagu/<name>/mcp`, which names the provider; a bearer token no static token matches is verified at the endpoint it is presented at (signature against the provider's keys with asymmetric algorithms only, `iss`, `aud`, `exp`, `nbf`, the scopes of `--oidc-scope`). Needs `--access-policy`. Static tokens (`--auth-token`, `--auth-token-file`) keep working beside it; `--upstream-auth passthrough` is the other mode and cannot be combined with it. A non-loopback `--listen` needs no static token then. See [security](security.md).",
		field: func(c *Config) any { return &c.OIDCIssuer }},
	{Group: GroupSignIn, Flag: flagOIDCAudience, Env: "GATEWAY_OIDC_AUDIENCES", Kind: KindList, ZeroDefault: "none: the endpoint's resource URL only", Chart: "oidc.audiences", Modes: modesHTTP, split: splitComma,
		Help:  "audience accepted in an access token besides the resource URL of the endpoint it is presented at (for providers that ignore resource indicators, such as Entra ID's api://...); repeat for several (env: comma-separated list)",
		Doc:   "An `aud` value accepted besides the resource URL of the MCP endpoint a token is presented at (`https://gw.example.com/mcp`, `https://gw.example.com/dagu/prod/mcp`): for providers that ignore RFC 8707 resource indicators and issue their own audiences, such as Entra ID's `api://...`. A token for such an audience is accepted at every endpoint, so the access policy's `instances` is what keeps people to theirs. Repeat the flag for several (the variable is a comma-separated list).",
		field: func(c *Config) any { return &c.OIDCAudiences }},
	{Group: GroupSignIn, Flag: flagOIDCGroupsClaim, Env: "GATEWAY_OIDC_GROUPS_CLAIM", Kind: KindString, Default: "groups", Chart: "oidc.groupsClaim", Modes: modesHTTP,
		Help:  "claim of the access token that lists the person's groups, which the access policy's groups match; a dotted name walks into nested objects (realm_access.roles)",
		Doc:   "Claim of the access token holding the person's groups, which the access policy's `groups` match (a list, or one space-separated string). A dotted name walks into nested objects, such as Keycloak's `realm_access.roles`.",
		field: func(c *Config) any { return &c.OIDCGroupsClaim }},
	{Group: GroupSignIn, Flag: flagOIDCScope, Env: "GATEWAY_OIDC_SCOPES", Kind: KindList, ZeroDefault: "none: no scope is required", Chart: "oidc.scopes", Modes: modesHTTP, split: splitComma,
		Help:  "scope every access token must carry (listed as scopes_supported in the metadata and as scope in challenges; a token without it gets 403 insufficient_scope); repeat for several (env: comma-separated list)",
		Doc:   "Scope every access token must carry: the metadata's `scopes_supported` and the `scope` of every challenge, so clients ask for it; a valid token without it gets 403 `insufficient_scope`. Repeat the flag for several (the variable is a comma-separated list). Unset, no scope is required.",
		field: func(c *Config) any { return &c.OIDCScopes }},
	{Group: GroupSignIn, Flag: flagAccessPolicy, Env: "GATEWAY_ACCESS_POLICY_FILE", Kind: KindString, ZeroDefault: "none", Chart: "oidc.accessPolicy", Modes: modesHTTP,
		Help:  "YAML file of the access rules of people who sign in (rules: name, groups, subjects, emails, scopes, instances, targets, daguApiKeyFile): the first rule that matches a person wins, none means no access; read again when it changes or on SIGHUP, a broken version keeping the last good one; needs --oidc-issuer",
		Doc:   "YAML file of the access rules of people who sign in with `--oidc-issuer` (required with it). Under `rules:`, each rule has a `name` (in logs and metrics), what a token must carry to match (`groups`, from `--oidc-groups-claim`; `subjects`, `*` for anyone signed in; `emails`, `*@example.com` for a domain; `scopes`), the `instances` it covers (with `--instances`: names or `*`), the dagu_read `targets` it allows (`[\"*\"]` or a list) and `daguApiKeyFile`, the Dagu key its reads use (with `--instances`, a map of instance name to key file; a relative path starts at the policy file's directory; unset, the instance's own key). `--dagu-api-key` (or an instance's `apiKeyFile`) is optional once the rules name their keys: the gateway's own calls to a Dagu without a key of its own (release detection, readiness, static-token callers) then use the key of the first rule that names one for it, and a person whose rule names none is refused there (503) rather than lent it. The first rule that matches a person for the endpoint addressed wins; none means 403. A target a rule leaves out is refused as `unauthorized` and never listed. Read again when it changes or on SIGHUP; a broken version keeps the last good one.",
		field: func(c *Config) any { return &c.AccessPolicyFile }},

	// What a read answers.
	{Group: GroupAnswers, Flag: flagMaxAnswerBytes, Env: "GATEWAY_MAX_ANSWER_BYTES", Kind: KindSize, Default: DefaultMaxAnswerBytes, Chart: "config.maxAnswerBytes", Modes: modesRead,
		Help:  "largest answer data of one read: a log window over it is cut on whole lines (keeping the end its query asked for, with hasMore and the query of a window that fits), other data over it is refused as unavailable",
		Doc:   "Largest answer data of one read. A `run_logs` or `step_log` window over it is cut on whole lines keeping the end the query asked for (the last lines of a tail or the default window, the first of head or offset), with `hasMore`, a smaller `lineCount` and `cut` (`leftOutLines`, the `query` of a window that fits, a `note`); other data over it is refused as `resource_unavailable` naming the query parameter that pages it. The contract's line limits stay.",
		field: func(c *Config) any { return &c.MaxAnswerBytes }},
	{Group: GroupAnswers, Flag: flagTextContent, Env: "GATEWAY_TEXT_CONTENT", Kind: KindString, Default: TextContentContract, Chart: "config.textContent", Modes: modesRead,
		Help:  "text content of a successful read: contract (the contract's text) or json (adds the data, cut at 64 KiB, for clients that pass only text to the model); a client may choose its own with /mcp?text-content=json",
		Doc:   "`contract`: the contract's text (`Dagu read completed.`). `json`: that text alone, then the data of every target in a second text item, for clients that pass only text content to the model (Open WebUI): Markdown, YAML and log lines as themselves under a heading, the other fields as JSON; past 64 KiB the text is cut on whole lines, keeping the window the query asked for (the newest lines for `tail` and the default window, the oldest for `head` and `offset`), and a closing line says how many lines were left out and which query narrows the read. A client's URL can choose otherwise (`/mcp?text-content=json`).",
		field: func(c *Config) any { return &c.TextContent }},
	{Group: GroupAnswers, Flag: flagResourceLinks, Env: "GATEWAY_RESOURCE_LINKS", Kind: KindString, Default: ResourceLinksContract, Chart: "config.resourceLinks", Modes: modesRead,
		Help:  "resource links in a successful read's content: contract (the contract's resource_link after the text) or omit (none; structuredContent is unchanged), for clients that turn links into attachments their model rejects (LangChain's adapters); a client may choose its own with /mcp?resource-links=omit",
		Doc:   "`contract`: a read with a `dagu://` URI has the contract's `resource_link` after its text. `omit`: no `resource_link` in any content (`structuredContent` is unchanged), for clients that turn links into attachments their model rejects (LangChain's MCP adapters). A client's URL can choose otherwise (`/mcp?resource-links=omit`).",
		field: func(c *Config) any { return &c.ResourceLinks }},
	{Group: GroupAnswers, Flag: flagDisableTarget, Env: "GATEWAY_DISABLE_TARGETS", Kind: KindList, ZeroDefault: "none", Chart: "config.disableTargets", Modes: modesRead, split: splitComma,
		Help:  "dagu_read target to switch off (it leaves the tool description and answers unsupported_read_target); repeat for several (env: comma-separated list)",
		Doc:   "A `dagu_read` target to switch off (e.g. `workbook`): it leaves the tool description and answers `unsupported_read_target`. Repeat the flag for several (the variable is a comma-separated list).",
		field: func(c *Config) any { return &c.DisabledTargets }},
	{Group: GroupAnswers, Flag: flagReferenceDir, Env: "GATEWAY_REFERENCE_DIR", Kind: KindString, ZeroDefault: "built-in topics", Chart: "config.referenceDir", Modes: modesRead,
		Help:  "directory of reference Markdown topics overriding the built-in ones",
		Doc:   "Directory of `<topic>.md` files overriding or adding reference topics.",
		field: func(c *Config) any { return &c.ReferenceDir }},

	// How long, how much and how often.
	{Group: GroupLimits, Flag: flagCallTimeout, Env: "GATEWAY_CALL_TIMEOUT", Kind: KindDuration, Default: "30s", Chart: "config.callTimeout", Modes: modesRead,
		Help:  "time limit for one whole read, all its calls to Dagu included (each call also has --upstream-timeout)",
		Doc:   "Deadline of one whole read: every call to Dagu it makes shares it (each call also has `--upstream-timeout`).",
		field: func(c *Config) any { return &c.CallTimeout }},
	{Group: GroupLimits, Flag: flagUpstreamConcurrency, Env: "GATEWAY_UPSTREAM_CONCURRENCY", Kind: KindInt, Default: DefaultUpstreamConcurrency, Chart: "config.upstreamConcurrency", Modes: modesRead,
		Help:  "requests to Dagu in flight at once; as many more may wait within their deadline, beyond that a read is refused with retryAfterMs; a freed place goes to the caller holding fewest, a full queue refuses the caller holding most",
		Doc:   "Requests to Dagu in flight at once; as many more may wait within their deadline, beyond that a read answers `resource_unavailable` with `details.retryAfterMs` (never an unbounded queue). The places are fair between callers (keyed as `--caller-concurrency`; unverified callers together): a freed place goes to the waiting request of the caller holding the fewest, and when the queue is full a request of a caller holding fewer (in flight and waiting) takes the waiting place of the newest request of the caller holding the most, which is refused instead, so one caller's flood costs only that caller. With `--instances`, one Dagu server may hold at most this less min(half, 2 × (instances − 1)) in flight, and as many waiting, so a slow one leaves slots to the others; the fairness between callers holds within each server's part. With `--shared-state` the fleet's budget is taken after a replica's place and is not fair between callers.",
		field: func(c *Config) any { return &c.UpstreamConcurrency }},
	{Group: GroupLimits, Flag: flagCallerConcurrency, Env: "GATEWAY_CALLER_CONCURRENCY", Kind: KindInt, Default: "16", Chart: "config.callerConcurrency", Modes: modesRead,
		Help:  "reads one caller may have in flight at once (keyed by whose credential it is, so several logins of one user share it); more answer resource_unavailable with details.retryAfterMs; 0 turns the limit off",
		Doc:   "Reads one caller may have in flight at once, keyed as `--rate-limit` is (whose credential it is, so several logins or copies of one key share it): one caller cannot take every upstream connection from the rest of the team. A read over it answers `resource_unavailable` with `details.retryAfterMs` (250). `0` turns the limit off.",
		field: func(c *Config) any { return &c.CallerConcurrency }},
	{Group: GroupLimits, Flag: flagRateLimit, Env: "GATEWAY_RATE_LIMIT", Kind: KindNumber, Default: "0", Chart: "config.rateLimit", Modes: modesRead,
		Help:  "reads per second each caller may make (a token bucket); 0 turns the limit off",
		Doc:   "Reads per second each caller may make (token bucket per caller); over it `resource_unavailable` with `details.retryAfterMs`.",
		field: func(c *Config) any { return &c.RateLimit }},
	{Group: GroupLimits, Flag: flagRateBurst, Env: "GATEWAY_RATE_BURST", Kind: KindInt, ZeroDefault: "twice the rate", Chart: "config.rateBurst", Modes: modesRead,
		Help:  "reads a caller may make at once above --rate-limit",
		Doc:   "Reads a caller may make at once above the rate.",
		field: func(c *Config) any { return &c.RateBurst }},
	// One budget for everything in flight; BENCHMARKS.md has the peak
	// memory it keeps the process under with the defaults.
	{Group: GroupLimits, Flag: flagMemoryBudget, Env: "GATEWAY_MEMORY_BUDGET", Kind: KindSize, Default: "96MiB", Chart: "config.memoryBudget", Modes: modesRead,
		Help:  "bytes all requests in flight may hold together: a request reserves several times its body before the body is read, an answer several times its size before it is written, and Dagu's answers being read are a part of it (at most --upstream-body-budget); a request that does not fit is refused at once (HTTP 503 with Retry-After, or resource_unavailable with retryAfterMs)",
		Doc:   "Bytes all requests in flight hold together. An `/mcp` request reserves 8 times its body (64 KiB more for any request) before the body is read, and its answer 4 times its encoded size before the envelope is built; Dagu's answers being read are a part of it (at most `--upstream-body-budget`). Everything a caller has in flight counts against its share: the budget divided among the callers with requests in flight, never more than the budget less one largest read and never less than one largest read (its request, a `--max-response-bytes` answer of Dagu read as log text and 4 times `--max-answer-bytes`); with `--instances`, each instance in use has such a share too. A request that does not fit waits up to a second for memory to come back, then is refused: HTTP 503 with `Retry-After: 1`, or `resource_unavailable` with `details.retryAfterMs`. The reservation is released when the answer is written, the client goes away, or the handler panics. At least 16 times `--max-answer-bytes`.",
		field: func(c *Config) any { return &c.MemoryBudget }},
	{Group: GroupLimits, Flag: flagMaxResponseBytes, Env: "GATEWAY_MAX_RESPONSE_BYTES", Kind: KindSize, Default: "32MiB", Chart: "config.maxResponseBytes", Modes: modesUpstream,
		Help:  "largest Dagu response body read, as bytes or with a binary unit (512KiB, 32MiB)",
		Doc:   "Largest Dagu response body read, as bytes or with a binary unit (`512KiB`, `32MiB`); past it the read fails as `resource_unavailable`. An answer that declares a larger `Content-Length` is refused before any of it is read.",
		field: func(c *Config) any { return &c.MaxResponseBytes }},
	// The body budget keeps 32 hostile answers read at once under 256 MiB
	// of memory (BENCHMARKS.md), half the shipped pod limit.
	{Group: GroupLimits, Flag: flagUpstreamBodyBudget, Env: "GATEWAY_UPSTREAM_BODY_BUDGET", Kind: KindSize, Default: "32MiB", Chart: "config.upstreamBodyBudget", Modes: modesUpstream,
		Help:  "bytes of Dagu response bodies all reads together may hold while reading them, at least --max-response-bytes; an answer that finds it spent is refused as unavailable with a retry delay",
		Doc:   "Bytes of Dagu answers all reads together hold while reading them (at least `--max-response-bytes`). A declared length is reserved whole, waiting within the call's deadline; an answer without one draws on it as it arrives and, once it is spent, fails as `resource_unavailable` with `details.retryAfterMs`. The default keeps 32 hostile 100 MB answers read at once under 256 MiB (BENCHMARKS.md).",
		field: func(c *Config) any { return &c.UpstreamBodyBudget }},

	// Caches.
	{Group: GroupCaches, Flag: flagCacheTTL, Env: "GATEWAY_CACHE_TTL", Kind: KindDuration, Default: "30s", Chart: "config.cacheTTL", Modes: modesRead,
		Help:  "how long Dagu answers are cached; 0 disables the cache",
		Doc:   "Cache lifetime of DAG specs, DAG names and reference files; `0` disables. An expired DAG-name list (it only feeds did-you-mean suggestions) still answers for one more TTL while it is read again in the background, so a suggestion may come from a list up to twice this old.",
		field: func(c *Config) any { return &c.CacheTTL }},
	{Group: GroupCaches, Flag: flagListCacheTTL, Env: "GATEWAY_LIST_CACHE_TTL", Kind: KindDuration, Default: DefaultListCacheTTL, Chart: "config.listCacheTTL", Modes: modesRead,
		Help:  "longest a dags, runs or dag answer is reused for identical reads of one credential (the staleness an agent may see in lists); 0 disables the reuse (identical concurrent reads still share one call)",
		Doc:   "Longest a `dags`, `runs` or `dag` answer (and the newest-run summary that resolves `latest` when the run cache is on) is reused for identical reads of one credential: the staleness an agent may see in lists. `0` disables the reuse; identical concurrent reads share one Dagu call either way.",
		field: func(c *Config) any { return &c.ListCacheTTL }},
	{Group: GroupCaches, Flag: flagRunCacheSize, Env: "GATEWAY_RUN_CACHE_SIZE", Kind: KindSize, Default: DefaultRunCacheSize, Chart: "config.runCacheSize", Modes: modesRead,
		Help:  "memory for answers of finished runs (details, stream presence, log windows), which never change, shared fairly by the callers holding entries; 0 disables the run cache",
		Doc:   "Memory for answers of finished runs (details, stream presence, log windows of finished steps), which never change; running runs are never cached, and `latest` is resolved on every read (through the DAG's newest-run summary when `--list-cache-ttl` is on too, so a finished latest run costs no full read). The size bounds the whole process; each caller holding entries may keep a fair part of it (the size divided among them, never less than its largest entry and a sixteenth of the size), and a caller over its part loses its own least recently used entries first, so one caller's reads never push out another's within its part. `0` disables it.",
		field: func(c *Config) any { return &c.RunCacheSize }},

	// Shared state: one Redis (or Valkey) shared by every replica.
	{Group: GroupShared, Flag: flagSharedState, Env: "GATEWAY_SHARED_STATE", Kind: KindString, ZeroDefault: "none: each replica keeps its own caches and limits", Chart: "sharedState.url", Modes: modesUpstream,
		Help:  "URL of a Redis or Valkey shared by the gateway's replicas: redis://host:6379/0 (one server), redis+cluster://host:port,host:port (Redis Cluster, a managed cluster mode's configuration endpoint) or redis+sentinel://host:26379,host:26379/master-name (Sentinel); rediss for TLS. It is a second cache level behind the local caches and keeps the rate limit and the upstream concurrency budget across replicas; when it is down, slow or failing over every read falls back to the replica's own caches and limits (put the password in --shared-state-password-file, not in the URL)",
		Doc:   "URL of a Redis or Valkey shared by the replicas: a second cache level behind the local caches, and the rate limit and upstream concurrency budget enforced across replicas. One server: `redis://host:6379/0`. Redis Cluster (or a managed service's cluster mode): `redis+cluster://host:port[,host:port...]`, any nodes or the configuration endpoint. Sentinel: `redis+sentinel://host:26379[,host:26379...]/master-name[/db]`, the sentinels. `rediss`, `rediss+cluster` and `rediss+sentinel` use TLS (`?ca_file=PATH` trusts the authorities of a PEM file). When it is down, slow or failing over, every read falls back to the replica's own caches and limits. Put the password in `--shared-state-password-file`, not in the URL. Without it each replica keeps its own caches and limits. See [Shared state](operations.md#shared-state-many-replicas).",
		field: func(c *Config) any { return &c.SharedStateURL }},
	{Group: GroupShared, Flag: flagSharedStatePassword, Env: "GATEWAY_SHARED_STATE_PASSWORD_FILE", Kind: KindString, ZeroDefault: "none", Chart: "sharedState.existingSecret", Modes: modesUpstream,
		Help:  "file holding the shared state's password, read again for every new connection",
		Doc:   "File holding the shared state's password, read again for every new connection (keep the password out of the URL).",
		field: func(c *Config) any { return &c.SharedStatePasswordFile }},
	{Group: GroupShared, Flag: flagSharedStateSentinel, Env: "GATEWAY_SHARED_STATE_SENTINEL_PASSWORD_FILE", Kind: KindString, ZeroDefault: "none", Chart: "sharedState.sentinelPasswordKey", Modes: modesUpstream,
		Help:  "file holding the sentinels' own password (requirepass in sentinel.conf), for a redis+sentinel URL whose sentinels need one; read at start",
		Doc:   "File holding the sentinels' own password (`requirepass` in `sentinel.conf`), for a `redis+sentinel://` URL whose sentinels need one; the Redis servers' password stays in `--shared-state-password-file`. Read at start: a rotated sentinel password needs a restart.",
		field: func(c *Config) any { return &c.SharedStateSentinelPasswordFile }},
	{Group: GroupShared, Flag: flagSharedStateTimeout, Env: "GATEWAY_SHARED_STATE_TIMEOUT", Kind: KindDuration, Default: "100ms", Chart: "sharedState.timeout", Modes: modesUpstream,
		Help:  "time limit for each shared-state operation; a slower answer counts as unavailable and the read goes on without it",
		Doc:   "Time limit of each shared-state operation; a slower answer counts as unavailable and the read goes on without it.",
		field: func(c *Config) any { return &c.SharedStateTimeout }},

	// Workbooks.
	{Group: GroupWorkbooks, Flag: flagWorkbookRoot, Env: "GATEWAY_WORKBOOK_ROOTS", Kind: KindList, ZeroDefault: "none: any readable file", Chart: "config.workbookRoots", Modes: modesRead, split: filepath.SplitList,
		Help:  "directory workbook reads are confined to; repeat for several (env: list separated like PATH, ':' on Unix)",
		Doc:   "Directory workbook reads are confined to; repeat the flag for several (the variable is a list separated like `PATH`, `:` on Unix). The file is opened through the root (`os.OpenRoot`), so a link swapped in after the path was checked cannot lead out of it. Unset, any file the gateway can read.",
		field: func(c *Config) any { return &c.WorkbookRoots }},
	{Group: GroupWorkbooks, Flag: flagWorkbookMaxBytes, Env: "GATEWAY_WORKBOOK_MAX_BYTES", Kind: KindSize, Default: "50MiB", Chart: "config.workbookMaxBytes", Modes: modesRead,
		Help:  "largest workbook file opened, as bytes or with a binary unit",
		Doc:   "Largest workbook file opened.",
		field: func(c *Config) any { return &c.WorkbookMaxBytes }},
	{Group: GroupWorkbooks, Flag: flagWorkbookMaxRows, Env: "GATEWAY_WORKBOOK_MAX_ROWS", Kind: KindInt, Default: "10000", Chart: "config.workbookMaxRows", Modes: modesRead,
		Help:  "data rows profiled per sheet",
		Doc:   "Data rows profiled per sheet (`row_count` is still exact).",
		field: func(c *Config) any { return &c.WorkbookMaxRows }},
	{Group: GroupWorkbooks, Flag: flagWorkbookMaxSheets, Env: "GATEWAY_WORKBOOK_MAX_SHEETS", Kind: KindInt, Default: "50", Chart: "config.workbookMaxSheets", Modes: modesRead,
		Help:  "sheets profiled per workbook; the rest are listed by name",
		Doc:   "Sheets profiled per workbook; the rest are listed by name with a warning.",
		field: func(c *Config) any { return &c.WorkbookMaxSheets }},
	{Group: GroupWorkbooks, Flag: flagWorkbookMaxMemory, Env: "GATEWAY_WORKBOOK_MAX_MEMORY", Kind: KindSize, Default: "64MiB", Chart: "config.workbookMaxMemory", Modes: modesRead,
		Help:  "memory one workbook read may use, as bytes or with a binary unit; a workbook that needs more is refused",
		Doc:   "Memory one workbook read may use (shared strings, styles, sheet and name lists, statistics and the profile it builds); a workbook that needs more fails as `resource_unavailable`. At least `1MiB`.",
		field: func(c *Config) any { return &c.WorkbookMaxMemory }},
	{Group: GroupWorkbooks, Flag: flagWorkbookConcurrency, Env: "GATEWAY_WORKBOOK_CONCURRENCY", Kind: KindInt, Default: "2", Chart: "config.workbookConcurrency", Modes: modesRead,
		Help:  "workbook reads run at once, shared fairly between callers; others wait for a slot until their deadline",
		Doc:   "Workbook reads that run at once; the others wait for a slot until the call's deadline, then fail as `resource_unavailable` with `details.retryAfterMs`. The slots are shared fairly between callers: a freed slot goes to the waiting caller that holds the fewest, so one caller's many reads make only that caller's reads wait; a caller alone may use every slot.",
		field: func(c *Config) any { return &c.WorkbookConcurrency }},

	// Logging and runtime.
	{Group: GroupProcess, Flag: "log-level", Env: "GATEWAY_LOG_LEVEL", Kind: KindString, Default: "info", Chart: "config.logLevel", Modes: modesRead,
		Help:  "log level: debug, info, warn or error",
		Doc:   "Log level: `debug`, `info`, `warn` or `error`.",
		field: func(c *Config) any { return &c.LogLevel }},
	{Group: GroupProcess, Flag: "log-format", Env: "GATEWAY_LOG_FORMAT", Kind: KindString, Default: "json", Chart: "config.logFormat", Modes: modesRead,
		Help:  "log format: json or text",
		Doc:   "Log format: `json` or `text`.",
		field: func(c *Config) any { return &c.LogFormat }},
	{Group: GroupProcess, Flag: flagGCHeapFloor, Env: "GATEWAY_GC_HEAP_FLOOR", Kind: KindSize, Default: DefaultGCHeapFloor, Chart: "config.gcHeapFloor", Modes: modesRead,
		Help:  "heap size the garbage collector lets a small heap grow to before it collects (it falls back to Go's default, GOGC=100, once the live heap passes half of it); 0 turns it off; ignored when GOGC is set",
		Doc:   "Heap goal the garbage collector keeps while the live heap is small (at most 6× the live heap); past half of it the collector runs as with Go's default (`GOGC=100`). The MCP SDK allocates about 300 KB per request, so with Go's default a gateway with a few MiB live collects every few requests. `0` leaves Go's policy; ignored when `GOGC` is set. At start-up an info line `GC policy` says which applies (`gc_policy` `on` with `gc_heap_floor`, or `off` with the `reason`).",
		field: func(c *Config) any { return &c.GCHeapFloor }},
	{Group: GroupProcess, Flag: flagMemoryLimit, Env: "GATEWAY_MEMORY_LIMIT", Kind: KindString, Default: MemoryLimitAuto, Chart: "config.memoryLimit", Modes: modesRead,
		Help:  "soft memory limit of the Go runtime (its collector runs more often near it): auto derives it from --memory-budget, the caches' bounds and 32MiB for the process itself (208MiB with the defaults); a size (at least 32MiB) sets it; off or 0 sets none; ignored when GOMEMLIMIT is set",
		Doc:   "Soft memory limit of the Go runtime (`runtime/debug.SetMemoryLimit`): the collector runs more often as the process's memory nears it, instead of letting garbage grow to twice the live heap. `auto` derives it from what the settings let the gateway hold: `--memory-budget`, the bounds of its caches (`--run-cache-size`, 32 MiB of DAG specs when `--cache-ttl` is on, 16 MiB of lists when `--list-cache-ttl` is on, 16 MiB of reference files with `--reference-dir`) and 32 MiB for the process itself: 208 MiB with the defaults. Workbook reads (`--workbook-max-memory` each) are not in it. A size (at least `32MiB`) sets it; `off` or `0` sets none. When the live heap is above the limit the runtime caps the collector at about half the CPU and lets the process grow past it rather than fail. Ignored when `GOMEMLIMIT` is set: the runtime's own value wins. At start-up an info line `memory limit` says which applies. See [Memory](operations.md#memory).",
		field: func(c *Config) any { return &c.MemoryLimit }},
}
