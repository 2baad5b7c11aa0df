// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultTimeout          = 15 * time.Second
	DefaultMaxResponseBytes = 32 << 20
	DefaultRetries          = 2
	DefaultUserAgent        = "dagu-mcp-gateway/dev"
)

// APIBase is the path under the Dagu URL where a release serves its REST
// API: Dagu 2.x serves /api/v1, Dagu 1.x /api/v2 (1.17 also has a legacy
// /api/v1 with other shapes, which the gateway never uses).
type APIBase string

// The REST bases the gateway knows.
const (
	APIv1 APIBase = "/api/v1"
	APIv2 APIBase = "/api/v2"
)

// apiBases lists the bases in detection order: /api/v2 first, because a
// Dagu 1.17 also answers its legacy /api/v1, while a Dagu 2.x answers
// /api/v2 only with its web UI (200 text/html), which never counts.
var apiBases = []APIBase{APIv2, APIv1}

// Config configures the Dagu REST client.
type Config struct {
	// BaseURL is the Dagu server's URL including any base path, e.g.
	// "https://dagu.example.com" or "https://example.com/dagu". The REST
	// API is BaseURL + "/api/v1" (Dagu 2.x) or BaseURL + "/api/v2" (Dagu
	// 1.x); DetectAPIBase finds out which, and /api/v1 is assumed until then.
	BaseURL string
	// Key supplies the API key sent as a Bearer token; nil or an empty key
	// sends no Authorization header.
	Key KeySource
	// Timeout bounds one call, retries and their waits included (default 15s).
	Timeout time.Duration
	// MaxResponseBytes caps every response body (default 32 MiB).
	MaxResponseBytes int64
	// CAFile is a PEM bundle trusted in addition to the system roots.
	CAFile string
	// InsecureSkipVerify disables TLS certificate checks (testing only).
	InsecureSkipVerify bool
	// UserAgent is sent on every request, e.g. "dagu-mcp-gateway/1.2.0".
	UserAgent string
	// Logger receives transport diagnostics; nil discards them. The API key
	// is never logged.
	Logger *slog.Logger
	// Retries is the most retries per call for connect errors and HTTP
	// 429/502/503/504 (default 2; negative disables retries).
	Retries int
	// Metrics, when set, receives the upstream request counters and the
	// latency histogram.
	Metrics prometheus.Registerer
	// Transport, when set, replaces the pooled HTTP transport (CAFile and
	// InsecureSkipVerify then do not apply). Benchmarks use it to measure
	// the gateway without a network; the guard, retries and size cap
	// still run.
	Transport http.RoundTripper

	// Passthrough sends each request's own caller credential (see
	// reqctx.WithCredential) instead of Key; a request without one is not
	// sent (Error.KeyUnreadable).
	Passthrough bool

	// Concurrency caps the requests to Dagu in flight at once (default
	// DefaultConcurrency); as many more may wait within their deadline,
	// and beyond that a call is refused (Error.Busy). The places are fair
	// between the callers the requests' contexts name (reqctx).
	Concurrency int

	// SharedBudget, when set, is the Concurrency budget enforced across
	// every replica of the gateway; while it cannot decide, each replica's
	// own cap holds.
	SharedBudget SharedBudget

	// BodyBudget caps the bytes of Dagu's answers that all calls together
	// hold while reading them (default DefaultBodyBudget); an answer that
	// finds it spent is refused (Error.Busy).
	BodyBudget int64
	// Memory is the process's memory budget: Dagu's answers being read
	// are a part of it, limited to BodyBudget, so what they hold also
	// counts against everything else in flight. Nil: BodyBudget alone.
	Memory *membudget.Budget

	// Limits, when set, are caps shared with other clients (NewLimits):
	// Concurrency, SharedBudget, BodyBudget and Memory are then not read.
	Limits *Limits

	// Compression decides whether Dagu is asked to gzip its answers
	// (default CompressionAuto; see Compression).
	Compression Compression

	// RetryBaseWait is the first backoff step (default 200ms); tests
	// shorten it.
	RetryBaseWait time.Duration
}

const defaultRetryBaseWait = 200 * time.Millisecond

// withDefaults returns cfg with zero fields replaced by their defaults.
func (cfg Config) withDefaults() Config {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.Retries == 0 {
		cfg.Retries = DefaultRetries
	}
	if cfg.Retries < 0 {
		cfg.Retries = 0
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Key == nil {
		cfg.Key = StaticKey("")
	}
	if cfg.RetryBaseWait <= 0 {
		cfg.RetryBaseWait = defaultRetryBaseWait
	}
	return cfg
}

// restBaseURL validates BaseURL and returns the REST base URL under api.
func restBaseURL(base string, api APIBase) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return nil, fmt.Errorf("dagu base URL: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errors.New("dagu base URL: scheme must be http or https")
	case u.Host == "":
		return nil, errors.New("dagu base URL: host is missing")
	case u.User != nil:
		return nil, errors.New("dagu base URL: credentials in the URL are not allowed; use the API key setting")
	case u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New("dagu base URL: query and fragment are not allowed")
	}
	rest := &url.URL{Scheme: u.Scheme, Host: u.Host}
	basePath := strings.TrimSuffix(u.EscapedPath(), "/") + string(api)
	if err := setEscapedPath(rest, basePath); err != nil {
		return nil, fmt.Errorf("dagu base URL: %w", err)
	}
	return rest, nil
}

// setEscapedPath sets u's path from its escaped form.
func setEscapedPath(u *url.URL, escaped string) error {
	path, err := url.PathUnescape(escaped)
	if err != nil {
		return err
	}
	u.Path, u.RawPath = path, escaped
	if u.EscapedPath() != escaped {
		u.RawPath = ""
	}
	return nil
}
