// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// Flag names. Each has exactly one environment variable in flagEnv.
const (
	flagDaguURL                = "dagu-url"
	flagDaguAPIKey             = "dagu-api-key"
	flagDaguAPIKeyFile         = "dagu-api-key-file"
	flagDaguCAFile             = "dagu-ca-file"
	flagDaguInsecureSkipVerify = "dagu-insecure-skip-verify"
	flagListen                 = "listen"
	flagAuthToken              = "auth-token"
	flagAuthTokenFile          = "auth-token-file"
	flagAllowedHost            = "allowed-host"
	flagUpstreamTimeout        = "upstream-timeout"
	flagMaxResponseBytes       = "max-response-bytes"
	flagUpstreamBodyBudget     = "upstream-body-budget"
	flagReferenceDir           = "reference-dir"
	flagCacheTTL               = "cache-ttl"
	flagWorkbookRoot           = "workbook-root"
	flagWorkbookMaxBytes       = "workbook-max-bytes"
	flagWorkbookMaxRows        = "workbook-max-rows"
	flagWorkbookMaxSheets      = "workbook-max-sheets"
	flagWorkbookMaxMemory      = "workbook-max-memory"
	flagWorkbookConcurrency    = "workbook-concurrency"
	flagLogLevel               = "log-level"
	flagLogFormat              = "log-format"
	flagShutdownTimeout        = "shutdown-timeout"
)

// flagEnv maps every flag to the environment variable that supplies it when
// the flag is not given on the command line.
var flagEnv = map[string]string{
	flagDaguURL:                "DAGU_URL",
	flagDaguAPIKey:             "DAGU_API_KEY",
	flagDaguAPIKeyFile:         "DAGU_API_KEY_FILE",
	flagDaguCAFile:             "DAGU_CA_FILE",
	flagDaguInsecureSkipVerify: "DAGU_INSECURE_SKIP_VERIFY",
	flagListen:                 "GATEWAY_LISTEN",
	flagAuthToken:              "GATEWAY_AUTH_TOKENS",
	flagAuthTokenFile:          "GATEWAY_AUTH_TOKEN_FILE",
	flagAllowedHost:            "GATEWAY_ALLOWED_HOSTS",
	flagUpstreamTimeout:        "GATEWAY_UPSTREAM_TIMEOUT",
	flagMaxResponseBytes:       "GATEWAY_MAX_RESPONSE_BYTES",
	flagUpstreamBodyBudget:     "GATEWAY_UPSTREAM_BODY_BUDGET",
	flagReferenceDir:           "GATEWAY_REFERENCE_DIR",
	flagCacheTTL:               "GATEWAY_CACHE_TTL",
	flagWorkbookRoot:           "GATEWAY_WORKBOOK_ROOTS",
	flagWorkbookMaxBytes:       "GATEWAY_WORKBOOK_MAX_BYTES",
	flagWorkbookMaxRows:        "GATEWAY_WORKBOOK_MAX_ROWS",
	flagWorkbookMaxSheets:      "GATEWAY_WORKBOOK_MAX_SHEETS",
	flagWorkbookMaxMemory:      "GATEWAY_WORKBOOK_MAX_MEMORY",
	flagWorkbookConcurrency:    "GATEWAY_WORKBOOK_CONCURRENCY",
	flagLogLevel:               "GATEWAY_LOG_LEVEL",
	flagLogFormat:              "GATEWAY_LOG_FORMAT",
	flagShutdownTimeout:        "GATEWAY_SHUTDOWN_TIMEOUT",
	flagCallTimeout:            "GATEWAY_CALL_TIMEOUT",
	flagTextContent:            "GATEWAY_TEXT_CONTENT",
	flagUpstreamConcurrency:    "GATEWAY_UPSTREAM_CONCURRENCY",
	flagRateLimit:              "GATEWAY_RATE_LIMIT",
	flagRateBurst:              "GATEWAY_RATE_BURST",
	flagDisableTarget:          "GATEWAY_DISABLE_TARGETS",
	flagMetricsListen:          "GATEWAY_METRICS_LISTEN",
	flagUpstreamAuth:           "GATEWAY_UPSTREAM_AUTH",
	flagListCacheTTL:           "GATEWAY_LIST_CACHE_TTL",
	flagRunCacheSize:           "GATEWAY_RUN_CACHE_SIZE",
}

// Defaults for flags that have one.
const (
	defaultListen           = "127.0.0.1:8090"
	defaultUpstreamTimeout  = 15 * time.Second
	defaultMaxResponseBytes = 32 << 20
	// defaultUpstreamBodyBudget keeps 32 hostile answers read at once under
	// 256 MiB of memory (BENCHMARKS.md), half the shipped pod limit.
	defaultUpstreamBodyBudget = 32 << 20
	defaultCacheTTL           = 30 * time.Second
	defaultWorkbookMaxBytes   = 50 << 20
	defaultWorkbookMaxRows    = 10000
	defaultWorkbookMaxSheets  = 50
	// defaultWorkbookMaxMemory and defaultWorkbookConcurrency keep two
	// reads of hostile workbooks well inside the shipped 512 MiB pod limit.
	defaultWorkbookMaxMemory   = 64 << 20
	defaultWorkbookConcurrency = 2
	defaultLogLevel            = "info"
	defaultLogFormat           = "json"
	defaultShutdownTimeout     = 10 * time.Second
)

// RegisterFlags adds every gateway flag to fs. Call ResolveConfig after
// fs has been parsed. Help texts name the environment variable of each flag
// and its default.
func RegisterFlags(fs *pflag.FlagSet) {
	registerDaguFlags(fs)
	registerFrontDoorFlags(fs)
	registerReadFlags(fs)
	registerPolicyFlags(fs)
	registerWorkbookFlags(fs)
	registerLoggingFlags(fs)
}

func registerDaguFlags(fs *pflag.FlagSet) {
	fs.String(flagDaguURL, "", flagHelp(flagDaguURL,
		"Dagu server base URL, including any base path (REST calls go to <url>/api/v1 on Dagu 2.x, <url>/api/v2 on 1.x, detected); required for serve, stdio and doctor", "none"))
	fs.String(flagDaguAPIKey, "", flagHelp(flagDaguAPIKey,
		"Dagu API key sent as a bearer token; prefer --dagu-api-key-file, which keeps the key out of process listings", "none"))
	fs.String(flagDaguAPIKeyFile, "", flagHelp(flagDaguAPIKeyFile,
		"file holding the Dagu API key, re-read when it changes; exclusive with --dagu-api-key", "none"))
	fs.String(flagDaguCAFile, "", flagHelp(flagDaguCAFile,
		"PEM file of extra CA certificates trusted for the Dagu server", "none"))
	fs.Bool(flagDaguInsecureSkipVerify, false, flagHelp(flagDaguInsecureSkipVerify,
		"skip TLS certificate verification of the Dagu server (unsafe; for testing only)", "false"))
}

func registerFrontDoorFlags(fs *pflag.FlagSet) {
	fs.String(flagListen, defaultListen, flagHelp(flagListen,
		"host:port of the HTTP server (serve, demo); a non-loopback address requires an inbound token", ""))
	fs.StringArray(flagAuthToken, nil, flagHelp(flagAuthToken,
		"inbound bearer token accepted on /mcp and /metrics; repeat for several (env: comma-separated list)", "none"))
	fs.String(flagAuthTokenFile, "", flagHelp(flagAuthTokenFile,
		"file of inbound bearer tokens, one per line; blank lines and lines starting with # are ignored", "none"))
	fs.StringArray(flagAllowedHost, nil, flagHelp(flagAllowedHost,
		"extra Host/Origin value accepted (DNS-rebinding allow-list), as host or host:port; repeat for several (env: comma-separated list)", "none"))
}

func registerReadFlags(fs *pflag.FlagSet) {
	fs.Duration(flagUpstreamTimeout, defaultUpstreamTimeout, flagHelp(flagUpstreamTimeout,
		"time limit for each call to Dagu", ""))
	maxResponse := byteSizeValue(defaultMaxResponseBytes)
	fs.Var(&maxResponse, flagMaxResponseBytes, flagHelp(flagMaxResponseBytes,
		"largest Dagu response body read, as bytes or with a binary unit (512KiB, 32MiB)", ""))
	bodyBudget := byteSizeValue(defaultUpstreamBodyBudget)
	fs.Var(&bodyBudget, flagUpstreamBodyBudget, flagHelp(flagUpstreamBodyBudget,
		"bytes of Dagu response bodies all reads together may hold while reading them, at least --max-response-bytes; an answer that finds it spent is refused as unavailable with a retry delay", ""))
	fs.String(flagReferenceDir, "", flagHelp(flagReferenceDir,
		"directory of reference Markdown topics overriding the built-in ones", "built-in topics"))
	fs.Duration(flagCacheTTL, defaultCacheTTL, flagHelp(flagCacheTTL,
		"how long Dagu answers are cached; 0 disables the cache", ""))
}

func registerWorkbookFlags(fs *pflag.FlagSet) {
	fs.StringArray(flagWorkbookRoot, nil, flagHelp(flagWorkbookRoot,
		"directory workbook reads are confined to; repeat for several (env: list separated like PATH, ':' on Unix)", "none: any readable file"))
	maxBytes := byteSizeValue(defaultWorkbookMaxBytes)
	fs.Var(&maxBytes, flagWorkbookMaxBytes, flagHelp(flagWorkbookMaxBytes,
		"largest workbook file opened, as bytes or with a binary unit", ""))
	fs.Int(flagWorkbookMaxRows, defaultWorkbookMaxRows, flagHelp(flagWorkbookMaxRows,
		"data rows profiled per sheet", ""))
	fs.Int(flagWorkbookMaxSheets, defaultWorkbookMaxSheets, flagHelp(flagWorkbookMaxSheets,
		"sheets profiled per workbook; the rest are listed by name", ""))
	maxMemory := byteSizeValue(defaultWorkbookMaxMemory)
	fs.Var(&maxMemory, flagWorkbookMaxMemory, flagHelp(flagWorkbookMaxMemory,
		"memory one workbook read may use, as bytes or with a binary unit; a workbook that needs more is refused", ""))
	fs.Int(flagWorkbookConcurrency, defaultWorkbookConcurrency, flagHelp(flagWorkbookConcurrency,
		"workbook reads run at once; others wait for a slot until their deadline", ""))
}

func registerLoggingFlags(fs *pflag.FlagSet) {
	fs.String(flagLogLevel, defaultLogLevel, flagHelp(flagLogLevel,
		"log level: debug, info, warn or error", ""))
	fs.String(flagLogFormat, defaultLogFormat, flagHelp(flagLogFormat,
		"log format: json or text", ""))
	fs.Duration(flagShutdownTimeout, defaultShutdownTimeout, flagHelp(flagShutdownTimeout,
		"time allowed for in-flight requests to finish on shutdown", ""))
}

// flagHelp builds a flag's usage text naming its environment variable. pflag
// prints non-zero defaults itself; emptyDefault describes the default of a
// flag whose zero value pflag would not show.
func flagHelp(flag, text, emptyDefault string) string {
	s := fmt.Sprintf("%s [env %s]", text, flagEnv[flag])
	if emptyDefault != "" {
		s += fmt.Sprintf(" (default %s)", emptyDefault)
	}
	return s
}
