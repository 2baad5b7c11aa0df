// SPDX-License-Identifier: Apache-2.0

// Package config is the gateway's configuration: one table of settings
// (Settings), each row naming its flag, environment variable, default, help
// text, Helm chart value and the subcommands that use it; flag registration
// and resolution (flag > environment > default) driven by that table; and
// validation with messages that say how to fix a setting. It also reads the
// inbound token file format and checks listen and host addresses, which the
// front door shares.
//
// The package knows nothing of Dagu's REST API, the generated client or the
// contract: facts it needs from other packages (the dagu_read targets, the
// defaults owned by the REST client and the adapter) are given to it or
// checked against it by the command's tests.
package config

import (
	"time"
)

// Config is the resolved runtime configuration of the gateway. It is built by
// Resolve from command-line flags, environment variables and defaults,
// in that order of precedence, and checked by Validate.
//
// Secret fields carry `json:"-"` and are redacted by String, GoString and
// LogValue, so printing or logging a Config never reveals them.
type Config struct {
	// DaguURL is the Dagu server base URL, including any base path, without a
	// trailing slash. The REST API lives under RESTBaseURL.
	DaguURL string
	// DaguAPIKey is the bearer token sent to Dagu. Never print it.
	DaguAPIKey string `json:"-"`
	// DaguAPIKeyFile is a file holding the Dagu API key; the upstream client
	// re-reads it when it changes. Mutually exclusive with DaguAPIKey.
	DaguAPIKeyFile string
	// DaguCAFile is a PEM bundle of extra roots trusted for the Dagu server.
	DaguCAFile string
	// DaguInsecureSkipVerify disables TLS verification of the Dagu server.
	DaguInsecureSkipVerify bool
	// InstancesFile names several Dagu servers (internal/instances reads
	// it); set, it replaces the single Dagu of the fields above.
	InstancesFile string

	// Listen is the host:port the HTTP front door binds to.
	Listen string
	// AuthTokens are inbound bearer tokens given directly (flag or env).
	AuthTokens []string `json:"-"`
	// AuthTokenFile holds more inbound bearer tokens, one per line.
	AuthTokenFile string
	// AllowedHosts are extra Host/Origin values the front door accepts.
	AllowedHosts []string
	// PublicURL is the URL clients reach the gateway at (no /mcp), used in
	// the OAuth protected-resource metadata and 401 challenges.
	PublicURL string
	// TrustedProxies are the networks (CIDR) of proxies whose forwarding
	// headers name the client (--trusted-proxies).
	TrustedProxies []string
	// ClientIPHeader is the one forwarding header a trusted proxy's client
	// address is read from (--client-ip-header): "", X-Forwarded-For or
	// Forwarded.
	ClientIPHeader string
	// TrustRecheck is how long Dagu's acceptance of a passthrough key and
	// its word on what the key may see are used as they are
	// (--trust-recheck).
	TrustRecheck time.Duration

	// OIDCIssuer is the OpenID provider people sign in with; empty: no
	// sign-in.
	OIDCIssuer string
	// OIDCAudiences are accepted in aud besides the endpoint's resource URL.
	OIDCAudiences []string
	// OIDCGroupsClaim names the access token's claim of groups.
	OIDCGroupsClaim string
	// OIDCScopes must all be in an access token.
	OIDCScopes []string
	// AccessPolicyFile holds the access rules of the people who sign in
	// (internal/policy reads it).
	AccessPolicyFile string

	// UpstreamTimeout bounds each call to Dagu.
	UpstreamTimeout time.Duration
	// MaxResponseBytes bounds the size of one Dagu response body.
	MaxResponseBytes int64
	// UpstreamBodyBudget bounds the bytes of Dagu response bodies held by
	// all reads at once.
	UpstreamBodyBudget int64
	// MemoryBudget bounds the bytes all requests in flight hold together.
	MemoryBudget int64
	// MaxAnswerBytes bounds the data of one answer.
	MaxAnswerBytes int64
	// ReferenceDir overrides the embedded reference topics when set.
	ReferenceDir string
	// CacheTTL is how long upstream answers are cached; 0 disables caching.
	CacheTTL time.Duration
	// CallTimeout bounds one whole read.
	CallTimeout time.Duration
	// TextContent is contract or json (see readtool.Options.TextContent).
	TextContent string
	// ResourceLinks is contract or omit (see readtool.Options.ResourceLinks).
	ResourceLinks string
	// UpstreamCompression is auto, gzip or identity (see
	// restclient.Compression).
	UpstreamCompression string
	// UpstreamConcurrency caps the requests to Dagu in flight.
	UpstreamConcurrency int
	// CallerConcurrency caps one caller's reads in flight (0: no limit).
	CallerConcurrency int
	// RateLimit is the reads per second per caller (0: off), RateBurst its
	// bucket size (0: twice the rate).
	RateLimit float64
	RateBurst int
	// DisabledTargets are dagu_read targets switched off.
	DisabledTargets []string
	// MetricsListen, when set, is a separate /metrics listener without
	// inbound tokens.
	MetricsListen string
	// UpstreamAuth is service or passthrough.
	UpstreamAuth string
	// ListCacheTTL is the longest a list answer is reused (0: never).
	ListCacheTTL time.Duration
	// RunCacheSize is the memory of the finished-run cache (0: off).
	RunCacheSize int64

	// SharedStateURL is the URL of the state the replicas share (redis://,
	// redis+cluster://, redis+sentinel:// and their rediss forms); empty:
	// none. Logged without its password.
	SharedStateURL string `json:"-"`
	// SharedStatePasswordFile holds the shared Redis servers' password.
	SharedStatePasswordFile string
	// SharedStateSentinelPasswordFile holds the sentinels' own password.
	SharedStateSentinelPasswordFile string
	// SharedStateTimeout bounds one shared-state operation.
	SharedStateTimeout time.Duration

	// WorkbookRoots restrict workbook reads to these directories when set.
	WorkbookRoots []string
	// WorkbookMaxBytes is the largest workbook file that is opened.
	WorkbookMaxBytes int64
	// WorkbookMaxRows is the number of data rows profiled per sheet.
	WorkbookMaxRows int
	// WorkbookMaxSheets is the number of sheets profiled per workbook.
	WorkbookMaxSheets int
	// WorkbookMaxMemory is the memory one workbook read may keep; a
	// workbook that needs more is refused.
	WorkbookMaxMemory int64
	// WorkbookConcurrency is how many workbook reads run at once, shared
	// fairly between callers; others wait for a slot within their deadline.
	WorkbookConcurrency int

	// LogLevel is one of debug, info, warn, error.
	LogLevel string
	// LogFormat is json or text.
	LogFormat string
	// ShutdownTimeout bounds graceful shutdown of the HTTP server.
	ShutdownTimeout time.Duration
	// GCHeapFloor is the heap goal the garbage collector keeps while the
	// live heap is small (0: Go's default policy).
	GCHeapFloor int64
	// MemoryLimit is the Go runtime's soft memory limit: auto (derived
	// from the memory settings), off or 0 (none), or a size; see
	// ParseMemoryLimit.
	MemoryLimit string
}

// Mode names the subcommand a Config is validated for, because each one
// needs a different part of the configuration.
type Mode string

// The modes Validate understands.
const (
	// ModeServe runs the HTTP front door against a real Dagu server.
	ModeServe Mode = "serve"
	// ModeStdio speaks MCP over stdin/stdout against a real Dagu server.
	ModeStdio Mode = "stdio"
	// ModeDemo runs the HTTP front door against the built-in fake Dagu.
	ModeDemo Mode = "demo"
	// ModeDoctor checks connectivity to a real Dagu server and exits.
	ModeDoctor Mode = "doctor"
	// ModeHealthcheck probes a running gateway's /healthz; it reads only
	// the listen address and is never validated.
	ModeHealthcheck Mode = "healthcheck"
)

// Upstream authentication modes (--upstream-auth).
const (
	// UpstreamAuthService reads Dagu with the gateway's own key.
	UpstreamAuthService = "service"
	// UpstreamAuthPassthrough forwards each HTTP caller's own Dagu key.
	UpstreamAuthPassthrough = "passthrough"
)

// Text content modes (--text-content); the read tool defines their meaning
// and the command's tests check both spellings agree.
const (
	// UpstreamCompressionAuto asks a near Dagu for identity, another for
	// gzip; UpstreamCompressionGzip and UpstreamCompressionIdentity always
	// ask for one (restclient.Compression's values).
	UpstreamCompressionAuto     = "auto"
	UpstreamCompressionGzip     = "gzip"
	UpstreamCompressionIdentity = "identity"
	// TextContentContract is the contract's text only.
	TextContentContract = "contract"
	// TextContentJSON adds the serialized data for text-only clients.
	TextContentJSON = "json"
)

// Resource-link modes (--resource-links); the read tool defines their
// meaning and the command's tests check both spellings agree.
const (
	// ResourceLinksContract keeps the contract's resource_link content.
	ResourceLinksContract = "contract"
	// ResourceLinksOmit leaves every resource_link out of the content.
	ResourceLinksOmit = "omit"
)

// Passthrough reports whether HTTP callers read Dagu with their own keys.
func (c Config) Passthrough() bool { return c.UpstreamAuth == UpstreamAuthPassthrough }

// SignIn reports whether people sign in with an OpenID provider
// (--oidc-issuer).
func (c Config) SignIn() bool { return c.OIDCIssuer != "" }

// restAPIPath is the path Dagu mounts its REST API under, below its base URL.
const restAPIPath = "/api/v1"

// RESTBaseURL returns the base URL of Dagu's REST API: DaguURL + "/api/v1".
func (c Config) RESTBaseURL() string {
	if c.DaguURL == "" {
		return ""
	}
	return c.DaguURL + restAPIPath
}

// needsDagu reports whether the mode talks to a real Dagu server.
func (m Mode) needsDagu() bool {
	return m == ModeServe || m == ModeStdio || m == ModeDoctor
}

// servesHTTP reports whether the mode opens the HTTP front door.
func (m Mode) servesHTTP() bool {
	return m == ModeServe || m == ModeDemo
}
