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

// Settings returns the settings table, in the order the help groups them.
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
	flagSharedState         = "shared-state"
	flagSharedStatePassword = "shared-state-password-file"
	flagSharedStateTimeout  = "shared-state-timeout"
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
)

// settings is the table. The defaults of workbook-max-memory and
// workbook-concurrency keep two reads of hostile workbooks well inside the
// shipped 512 MiB pod limit.
var settings = []Setting{
	// Dagu server.
	{Flag: flagDaguURL, Env: "DAGU_URL", Kind: KindString, ZeroDefault: "none", Chart: "dagu.url", Modes: modesDagu,
		Help:  "Dagu server base URL, including any base path (REST calls go to <url>/api/v1 on Dagu 2.x, <url>/api/v2 on 1.x, detected); required for serve, stdio and doctor",
		field: func(c *Config) any { return &c.DaguURL }},
	{Flag: flagDaguAPIKey, Env: "DAGU_API_KEY", Kind: KindString, ZeroDefault: "none", Chart: "secret.daguApiKeyKey", Modes: modesUpstream, Secret: true,
		Help:  "Dagu API key sent as a bearer token; prefer --dagu-api-key-file, which keeps the key out of process listings",
		field: func(c *Config) any { return &c.DaguAPIKey }},
	{Flag: flagDaguAPIKeyFile, Env: "DAGU_API_KEY_FILE", Kind: KindString, ZeroDefault: "none", Chart: "secret.daguApiKeyKey", Modes: modesDagu,
		Help:  "file holding the Dagu API key, re-read when it changes; exclusive with --dagu-api-key",
		field: func(c *Config) any { return &c.DaguAPIKeyFile }},
	{Flag: "dagu-ca-file", Env: "DAGU_CA_FILE", Kind: KindString, ZeroDefault: "none", Chart: "dagu.ca", Modes: modesDagu,
		Help:  "PEM file of extra CA certificates trusted for the Dagu server",
		field: func(c *Config) any { return &c.DaguCAFile }},
	{Flag: "dagu-insecure-skip-verify", Env: "DAGU_INSECURE_SKIP_VERIFY", Kind: KindBool, ZeroDefault: "false", Chart: "dagu.insecureSkipVerify", Modes: modesDagu,
		Help:  "skip TLS certificate verification of the Dagu server (unsafe; for testing only)",
		field: func(c *Config) any { return &c.DaguInsecureSkipVerify }},
	{Flag: flagInstances, Env: "GATEWAY_INSTANCES_FILE", Kind: KindString, ZeroDefault: "none: one Dagu, from --dagu-url", Chart: "instances", Modes: []Mode{ModeServe, ModeStdio, ModeDoctor},
		Help:  "YAML file of named Dagu servers (name, url, apiKeyFile or upstreamAuth: passthrough, caFile, insecureSkipVerify, upstreamTimeout, upstreamCompression), each served at /dagu/<name>/mcp (/mcp serves the one named default); read again when it changes or on SIGHUP, a broken version keeping the last good one; exclusive with --dagu-url, --dagu-api-key[-file], --dagu-ca-file and --dagu-insecure-skip-verify; stdio serves one (--instance NAME, else the one named default), doctor checks each (--instance NAME: one)",
		field: func(c *Config) any { return &c.InstancesFile }},

	// HTTP front door.
	{Flag: FlagListen, Env: "GATEWAY_LISTEN", Kind: KindString, Default: "127.0.0.1:8090", Chart: "config.listen", Modes: []Mode{ModeServe, ModeDemo, ModeHealthcheck},
		Help:  "host:port of the HTTP server (serve, demo); a non-loopback address requires an inbound token",
		field: func(c *Config) any { return &c.Listen }},
	{Flag: flagAuthToken, Env: "GATEWAY_AUTH_TOKENS", Kind: KindList, ZeroDefault: "none", Chart: "secret.authTokensKey", Modes: modesHTTP, Secret: true, split: splitComma,
		Help:  "inbound bearer token accepted on /mcp and /metrics; repeat for several (env: comma-separated list)",
		field: func(c *Config) any { return &c.AuthTokens }},
	{Flag: flagAuthTokenFile, Env: "GATEWAY_AUTH_TOKEN_FILE", Kind: KindString, ZeroDefault: "none", Chart: "secret.authTokensKey", Modes: modesHTTP,
		Help:  "file of inbound bearer tokens, one per line; blank lines and lines starting with # are ignored",
		field: func(c *Config) any { return &c.AuthTokenFile }},
	{Flag: flagAllowedHost, Env: "GATEWAY_ALLOWED_HOSTS", Kind: KindList, ZeroDefault: "none", Chart: "config.allowedHosts", Modes: modesHTTP, split: splitComma,
		Help:  "extra Host/Origin value accepted (DNS-rebinding allow-list), as host or host:port; repeat for several (env: comma-separated list)",
		field: func(c *Config) any { return &c.AllowedHosts }},
	{Flag: flagPublicURL, Env: "GATEWAY_PUBLIC_URL", Kind: KindString, ZeroDefault: "none", Chart: "config.publicURL", Modes: modesHTTP,
		Help:  "URL clients reach the gateway at, without /mcp (https://gw.example.com); names the resource in the OAuth protected-resource metadata and 401 challenges. Unset: the request's Host when the Host check applies (loopback listen or --allowed-host), else the address the connection arrived on, never an unchecked Host",
		field: func(c *Config) any { return &c.PublicURL }},
	{Flag: flagTrustedProxies, Env: "GATEWAY_TRUSTED_PROXIES", Kind: KindList, ZeroDefault: "none", Chart: "config.trustedProxies", Modes: []Mode{ModeServe}, split: splitComma,
		Help:  "proxy or ingress network (CIDR) or address whose X-Forwarded-For (else Forwarded) names the client, taken as the rightmost hop not in these networks; repeat for several (env: comma-separated list). Unset: the client is the TCP peer, so every caller behind one proxy shares its address",
		field: func(c *Config) any { return &c.TrustedProxies }},

	// Reads.
	{Flag: flagUpstreamTimeout, Env: "GATEWAY_UPSTREAM_TIMEOUT", Kind: KindDuration, Default: "15s", Chart: "config.upstreamTimeout", Modes: modesUpstream,
		Help:  "time limit for each call to Dagu",
		field: func(c *Config) any { return &c.UpstreamTimeout }},
	{Flag: flagMaxResponseBytes, Env: "GATEWAY_MAX_RESPONSE_BYTES", Kind: KindSize, Default: "32MiB", Chart: "config.maxResponseBytes", Modes: modesUpstream,
		Help:  "largest Dagu response body read, as bytes or with a binary unit (512KiB, 32MiB)",
		field: func(c *Config) any { return &c.MaxResponseBytes }},
	// The body budget keeps 32 hostile answers read at once under 256 MiB
	// of memory (BENCHMARKS.md), half the shipped pod limit.
	{Flag: flagUpstreamBodyBudget, Env: "GATEWAY_UPSTREAM_BODY_BUDGET", Kind: KindSize, Default: "32MiB", Chart: "config.upstreamBodyBudget", Modes: modesUpstream,
		Help:  "bytes of Dagu response bodies all reads together may hold while reading them, at least --max-response-bytes; an answer that finds it spent is refused as unavailable with a retry delay",
		field: func(c *Config) any { return &c.UpstreamBodyBudget }},
	// One budget for everything in flight; BENCHMARKS.md has the peak
	// memory it keeps the process under with the defaults.
	{Flag: flagMemoryBudget, Env: "GATEWAY_MEMORY_BUDGET", Kind: KindSize, Default: "96MiB", Chart: "config.memoryBudget", Modes: modesRead,
		Help:  "bytes all requests in flight may hold together: a request reserves several times its body before the body is read, an answer several times its size before it is written, and Dagu's answers being read are a part of it (at most --upstream-body-budget); a request that does not fit is refused at once (HTTP 503 with Retry-After, or resource_unavailable with retryAfterMs)",
		field: func(c *Config) any { return &c.MemoryBudget }},
	{Flag: flagMaxAnswerBytes, Env: "GATEWAY_MAX_ANSWER_BYTES", Kind: KindSize, Default: DefaultMaxAnswerBytes, Chart: "config.maxAnswerBytes", Modes: modesRead,
		Help:  "largest answer data of one read: a log window over it is cut on whole lines (keeping the end its query asked for, with hasMore and the query of a window that fits), other data over it is refused as unavailable",
		field: func(c *Config) any { return &c.MaxAnswerBytes }},
	{Flag: flagReferenceDir, Env: "GATEWAY_REFERENCE_DIR", Kind: KindString, ZeroDefault: "built-in topics", Chart: "config.referenceDir", Modes: modesRead,
		Help:  "directory of reference Markdown topics overriding the built-in ones",
		field: func(c *Config) any { return &c.ReferenceDir }},
	{Flag: flagCacheTTL, Env: "GATEWAY_CACHE_TTL", Kind: KindDuration, Default: "30s", Chart: "config.cacheTTL", Modes: modesRead,
		Help:  "how long Dagu answers are cached; 0 disables the cache",
		field: func(c *Config) any { return &c.CacheTTL }},

	// Read policy: how long one read may take, what a text-only client
	// gets, and how the gateway protects Dagu.
	{Flag: flagCallTimeout, Env: "GATEWAY_CALL_TIMEOUT", Kind: KindDuration, Default: "30s", Chart: "config.callTimeout", Modes: modesRead,
		Help:  "time limit for one whole read, all its calls to Dagu included (each call also has --upstream-timeout)",
		field: func(c *Config) any { return &c.CallTimeout }},
	{Flag: flagTextContent, Env: "GATEWAY_TEXT_CONTENT", Kind: KindString, Default: TextContentContract, Chart: "config.textContent", Modes: modesRead,
		Help:  "text content of a successful read: contract (the contract's text) or json (adds the data, cut at 64 KiB, for clients that pass only text to the model); a client may choose its own with /mcp?text-content=json",
		field: func(c *Config) any { return &c.TextContent }},
	{Flag: flagResourceLinks, Env: "GATEWAY_RESOURCE_LINKS", Kind: KindString, Default: ResourceLinksContract, Chart: "config.resourceLinks", Modes: modesRead,
		Help:  "resource links in a successful read's content: contract (the contract's resource_link after the text) or omit (none; structuredContent is unchanged), for clients that turn links into attachments their model rejects (LangChain's adapters); a client may choose its own with /mcp?resource-links=omit",
		field: func(c *Config) any { return &c.ResourceLinks }},
	{Flag: flagUpstreamCompression, Env: "GATEWAY_UPSTREAM_COMPRESSION", Kind: KindString, Default: UpstreamCompressionAuto, Chart: "config.upstreamCompression", Modes: modesUpstream,
		Help:  "whether Dagu is asked to gzip its answers: auto (identity for a Dagu at localhost or a loopback or private IP address, gzip otherwise), gzip or identity",
		field: func(c *Config) any { return &c.UpstreamCompression }},
	{Flag: flagUpstreamConcurrency, Env: "GATEWAY_UPSTREAM_CONCURRENCY", Kind: KindInt, Default: DefaultUpstreamConcurrency, Chart: "config.upstreamConcurrency", Modes: modesRead,
		Help:  "requests to Dagu in flight at once; as many more may wait within their deadline, beyond that a read is refused with retryAfterMs",
		field: func(c *Config) any { return &c.UpstreamConcurrency }},
	{Flag: flagCallerConcurrency, Env: "GATEWAY_CALLER_CONCURRENCY", Kind: KindInt, Default: "16", Chart: "config.callerConcurrency", Modes: modesRead,
		Help:  "reads one caller may have in flight at once (keyed by whose credential it is, so several logins of one user share it); more answer resource_unavailable with details.retryAfterMs; 0 turns the limit off",
		field: func(c *Config) any { return &c.CallerConcurrency }},
	{Flag: flagRateLimit, Env: "GATEWAY_RATE_LIMIT", Kind: KindNumber, Default: "0", Chart: "config.rateLimit", Modes: modesRead,
		Help:  "reads per second each caller may make (a token bucket); 0 turns the limit off",
		field: func(c *Config) any { return &c.RateLimit }},
	{Flag: flagRateBurst, Env: "GATEWAY_RATE_BURST", Kind: KindInt, ZeroDefault: "twice the rate", Chart: "config.rateBurst", Modes: modesRead,
		Help:  "reads a caller may make at once above --rate-limit",
		field: func(c *Config) any { return &c.RateBurst }},
	{Flag: flagUpstreamAuth, Env: "GATEWAY_UPSTREAM_AUTH", Kind: KindString, Default: UpstreamAuthService, Chart: "config.upstreamAuth", Modes: modesHTTP,
		Help:  "service: every caller reads Dagu with the gateway's key; passthrough: each HTTP caller sends its own Dagu API key as Authorization: Bearer <key> and Dagu's roles decide what it sees (no service key or inbound tokens then; stdio still uses DAGU_API_KEY)",
		field: func(c *Config) any { return &c.UpstreamAuth }},
	{Flag: flagListCacheTTL, Env: "GATEWAY_LIST_CACHE_TTL", Kind: KindDuration, Default: DefaultListCacheTTL, Chart: "config.listCacheTTL", Modes: modesRead,
		Help:  "longest a dags, runs or dag answer is reused for identical reads of one credential (the staleness an agent may see in lists); 0 disables the reuse (identical concurrent reads still share one call)",
		field: func(c *Config) any { return &c.ListCacheTTL }},
	{Flag: flagRunCacheSize, Env: "GATEWAY_RUN_CACHE_SIZE", Kind: KindSize, Default: DefaultRunCacheSize, Chart: "config.runCacheSize", Modes: modesRead,
		Help:  "memory for answers of finished runs (details, stream presence, log windows), which never change; 0 disables the run cache",
		field: func(c *Config) any { return &c.RunCacheSize }},
	{Flag: flagMetricsListen, Env: "GATEWAY_METRICS_LISTEN", Kind: KindString, ZeroDefault: "none", Chart: "config.metricsListen", Modes: modesHTTP,
		Help:  "host:port of a separate listener serving only /metrics, without inbound tokens (for scrapers inside the cluster); unset keeps /metrics on --listen behind the tokens",
		field: func(c *Config) any { return &c.MetricsListen }},
	{Flag: flagDisableTarget, Env: "GATEWAY_DISABLE_TARGETS", Kind: KindList, ZeroDefault: "none", Chart: "config.disableTargets", Modes: modesRead, split: splitComma,
		Help:  "dagu_read target to switch off (it leaves the tool description and answers unsupported_read_target); repeat for several (env: comma-separated list)",
		field: func(c *Config) any { return &c.DisabledTargets }},

	// Shared state: one Redis (or Valkey) shared by every replica.
	{Flag: flagSharedState, Env: "GATEWAY_SHARED_STATE", Kind: KindString, ZeroDefault: "none: each replica keeps its own caches and limits", Chart: "sharedState.url", Modes: modesUpstream,
		Help:  "redis:// or rediss:// URL of a Redis or Valkey shared by the gateway's replicas: a second cache level behind the local caches, the rate limit and the upstream concurrency budget enforced across replicas; when it is down or slow every read falls back to the replica's own caches and limits (put the password in --shared-state-password-file, not in the URL)",
		field: func(c *Config) any { return &c.SharedStateURL }},
	{Flag: flagSharedStatePassword, Env: "GATEWAY_SHARED_STATE_PASSWORD_FILE", Kind: KindString, ZeroDefault: "none", Chart: "sharedState.existingSecret", Modes: modesUpstream,
		Help:  "file holding the shared state's password, read again for every new connection",
		field: func(c *Config) any { return &c.SharedStatePasswordFile }},
	{Flag: flagSharedStateTimeout, Env: "GATEWAY_SHARED_STATE_TIMEOUT", Kind: KindDuration, Default: "100ms", Chart: "sharedState.timeout", Modes: modesUpstream,
		Help:  "time limit for each shared-state operation; a slower answer counts as unavailable and the read goes on without it",
		field: func(c *Config) any { return &c.SharedStateTimeout }},

	// Workbooks.
	{Flag: flagWorkbookRoot, Env: "GATEWAY_WORKBOOK_ROOTS", Kind: KindList, ZeroDefault: "none: any readable file", Chart: "config.workbookRoots", Modes: modesRead, split: filepath.SplitList,
		Help:  "directory workbook reads are confined to; repeat for several (env: list separated like PATH, ':' on Unix)",
		field: func(c *Config) any { return &c.WorkbookRoots }},
	{Flag: flagWorkbookMaxBytes, Env: "GATEWAY_WORKBOOK_MAX_BYTES", Kind: KindSize, Default: "50MiB", Chart: "config.workbookMaxBytes", Modes: modesRead,
		Help:  "largest workbook file opened, as bytes or with a binary unit",
		field: func(c *Config) any { return &c.WorkbookMaxBytes }},
	{Flag: flagWorkbookMaxRows, Env: "GATEWAY_WORKBOOK_MAX_ROWS", Kind: KindInt, Default: "10000", Chart: "config.workbookMaxRows", Modes: modesRead,
		Help:  "data rows profiled per sheet",
		field: func(c *Config) any { return &c.WorkbookMaxRows }},
	{Flag: flagWorkbookMaxSheets, Env: "GATEWAY_WORKBOOK_MAX_SHEETS", Kind: KindInt, Default: "50", Chart: "config.workbookMaxSheets", Modes: modesRead,
		Help:  "sheets profiled per workbook; the rest are listed by name",
		field: func(c *Config) any { return &c.WorkbookMaxSheets }},
	{Flag: flagWorkbookMaxMemory, Env: "GATEWAY_WORKBOOK_MAX_MEMORY", Kind: KindSize, Default: "64MiB", Chart: "config.workbookMaxMemory", Modes: modesRead,
		Help:  "memory one workbook read may use, as bytes or with a binary unit; a workbook that needs more is refused",
		field: func(c *Config) any { return &c.WorkbookMaxMemory }},
	{Flag: flagWorkbookConcurrency, Env: "GATEWAY_WORKBOOK_CONCURRENCY", Kind: KindInt, Default: "2", Chart: "config.workbookConcurrency", Modes: modesRead,
		Help:  "workbook reads run at once; others wait for a slot until their deadline",
		field: func(c *Config) any { return &c.WorkbookConcurrency }},

	// Process.
	{Flag: "log-level", Env: "GATEWAY_LOG_LEVEL", Kind: KindString, Default: "info", Chart: "config.logLevel", Modes: modesRead,
		Help:  "log level: debug, info, warn or error",
		field: func(c *Config) any { return &c.LogLevel }},
	{Flag: "log-format", Env: "GATEWAY_LOG_FORMAT", Kind: KindString, Default: "json", Chart: "config.logFormat", Modes: modesRead,
		Help:  "log format: json or text",
		field: func(c *Config) any { return &c.LogFormat }},
	{Flag: flagGCHeapFloor, Env: "GATEWAY_GC_HEAP_FLOOR", Kind: KindSize, Default: DefaultGCHeapFloor, Chart: "config.gcHeapFloor", Modes: modesRead,
		Help:  "heap size the garbage collector lets a small heap grow to before it collects (it falls back to Go's default, GOGC=100, once the live heap passes half of it); 0 turns it off; ignored when GOGC is set",
		field: func(c *Config) any { return &c.GCHeapFloor }},
	{Flag: flagShutdownTimeout, Env: "GATEWAY_SHUTDOWN_TIMEOUT", Kind: KindDuration, Default: "10s", Chart: "config.shutdownTimeout", Modes: modesHTTP,
		Help:  "time allowed for in-flight requests to finish on shutdown",
		field: func(c *Config) any { return &c.ShutdownTimeout }},
}
