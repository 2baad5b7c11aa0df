// SPDX-License-Identifier: Apache-2.0

// Package frontdoor is the gateway's HTTP front door: the handler in front
// of MCP Streamable HTTP (host and origin checks against DNS rebinding,
// inbound bearer tokens or a caller's own Dagu key, request IDs and caller
// names, body limits, the JSON-RPC check of every message (errors in JSON
// in every MCP revision, 2025-03-26 batches served message by message,
// batches of later revisions refused), the OAuth protected
// resource metadata, /healthz, /readyz and /metrics), and the HTTP server
// that runs it with bounded timeouts and graceful shutdown.
//
// It knows nothing of Dagu's REST API, the generated client, the mapping or
// the read tool: the MCP handler, readiness and metrics are handed to it.
package frontdoor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/logsample"
	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
)

// Front door defaults.
const (
	defaultMaxBodyBytes = 1 << 20
	defaultReadyTimeout = 5 * time.Second
)

// Options configures the HTTP handler of serve and demo.
type Options struct {
	// MCP serves /mcp, normally the go-sdk StreamableHTTPHandler (stateless,
	// JSON responses). Required. Because the front door does its own
	// DNS-rebinding check, which honours AllowedHosts, the SDK's built-in
	// localhost protection should be disabled, or it refuses allowed hosts.
	MCP http.Handler
	// Ready reports readiness for /readyz; body is written as JSON (a nil
	// body becomes {"status":"ready"} or {"status":"not ready"}). detailed
	// is true only for a caller that could also use /mcp (an accepted Host
	// and, when tokens are configured, a valid token); the open answer
	// should say ready or not and nothing more. Nil Ready means always
	// ready.
	Ready func(ctx context.Context, detailed bool) (ok bool, body any)
	// Metrics serves /metrics (promhttp). Nil leaves the route out.
	Metrics http.Handler
	// TokenFile is a file of inbound tokens (one per line, "name:token" to
	// name the caller), read again whenever it changes (looked at once per
	// config.DefaultStatInterval at most).
	TokenFile string
	// Now replaces the clock of the token file's change checks (default
	// time.Now).
	Now func() time.Time
	// Tokens are the inbound bearer tokens accepted on /mcp and /metrics.
	// None means no authentication, allowed only on a loopback listen
	// address (New refuses otherwise, as config.Config.Validate does).
	Tokens []string
	// Passthrough means each caller's Authorization header carries its own
	// Dagu key: /mcp requires one (a 401 with a Bearer challenge otherwise),
	// Dagu judges it, and no inbound tokens are configured.
	Passthrough bool
	// Verify makes the one trust decision of a passthrough request before
	// any work: what Dagu says of the caller's key and the caller's name
	// for logs and per-caller limits. Required with Passthrough. The
	// decision reaches the tool in the request's context (reqctx.Info),
	// with the credential (reqctx.WithCredential); /metrics answers only a
	// verified caller.
	Verify Verifier
	// TrustedProxies are the networks of the proxies in front of the
	// gateway: a request from one of them is from the client its
	// ClientIPHeader names (see forwarding.clientOf); the lane of unknown
	// keys and unverified callers' limits count by it.
	TrustedProxies []netip.Prefix
	// ClientIPHeader is the one forwarding header TrustedProxies append to
	// (config.HeaderXForwardedFor or config.HeaderForwarded); required
	// with TrustedProxies, refused without. The other is never read.
	ClientIPHeader string
	// AllowedHosts are extra Host/Origin values accepted, as host or
	// host:port.
	AllowedHosts []string
	// PublicURL is the URL clients reach the gateway at, without /mcp
	// (config.PublicURLBase checks it): the resource of the OAuth metadata
	// and of 401 challenges. Empty: the Host when the host check applies,
	// else the address the connection arrived on.
	PublicURL string
	// Listen is the configured listen address; it decides whether the
	// DNS-rebinding check applies and which port local names must carry.
	Listen string
	// Logger receives one line per request. Nil discards.
	Logger *slog.Logger
	// MaxBodyBytes bounds a /mcp request body; 0 means 1 MiB.
	MaxBodyBytes int64
	// ReadyTimeout bounds one call of Ready; 0 means 5s.
	ReadyTimeout time.Duration
	// ReadyInstance, with Instances, answers /readyz?instance=NAME as Ready
	// answers /readyz, for that instance alone; found is false for a name
	// not served (404). Nil: /readyz ignores the parameter.
	ReadyInstance func(ctx context.Context, name string, detailed bool) (found, ok bool, body any)
	// Instances, when set, are the named Dagu servers of an instances
	// file: each is served at /dagu/<name>/mcp, and /mcp serves the one
	// named default (a 404 listing the endpoints without one); MCP is then
	// not used. Host check, tokens, body limit, memory budget and batch
	// refusal are the same for every instance (one process, one budget);
	// a token limited to some instances ("token instances=a,b") gets a 403
	// on the others, and in passthrough a caller's key is verified by, and
	// only ever sent to, the instance it was presented to (Endpoint.Verify;
	// Options.Verify then guards /metrics alone).
	Instances Endpoints
	// SignIn, when set, lets people sign in with an OpenID provider: a
	// bearer token that is not one of the static tokens is an access token
	// of the provider, verified at the MCP endpoint it is presented at, and
	// the access policy decides what its person reads (reqctx.Info's
	// Person, Rule and Targets; the rule's Dagu key through
	// reqctx.WithCredential). Static tokens keep working beside it. Not
	// with Passthrough.
	SignIn *SignIn
	// Memory is the process's memory budget: an /mcp request reserves
	// its share before its body is read (503 with Retry-After when it
	// does not fit) and holds it, grown by the tool for its answer, until
	// its handler returns. Nil reserves nothing.
	Memory *membudget.Budget
}

// New builds the handler for the HTTP transport:
//
//	POST|GET|DELETE /mcp  host check, bearer auth, the client's output
//	                      choice (?text-content=&resource-links=, else 400),
//	                      body limit, memory admission, the JSON-RPC check
//	                      (messages), then MCP
//	GET /metrics          host check, bearer auth, then Metrics
//	GET /.well-known/oauth-protected-resource[/mcp]
//	                      host check, then the RFC 9728 metadata (only
//	                      with tokens: it is where a 401 points)
//	POST /register        host check, then 403 telling an OAuth client
//	                      to send a bearer token (only with tokens)
//	GET /healthz          200 {"status":"ok"}
//	GET /readyz           200 or 503 with Ready's body
//
// With Instances, /dagu/<name>/mcp is each instance's /mcp (and
// /.well-known/oauth-protected-resource/dagu/<name>/mcp its metadata); /mcp
// is the instance named default. Any other path under /dagu is a 404 (no
// redirect to a cleaned path), and so is a name not served, both listing
// the endpoints the caller may use (after the token check).
//
// Every request is logged (method, path, status, duration, remote) and a
// panic becomes a 500. Health routes skip the host check and auth so that
// orchestrator probes, which address the pod by IP, keep working.
func New(o Options) (http.Handler, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	auth := newTokenAuth(o.Tokens, o.TokenFile, logger, o.Now)
	auth.signIn = o.SignIn
	return newWithAuth(o, auth, logger)
}

// newWithAuth is New with the token check made: what a test that counts
// the checks builds.
func newWithAuth(o Options, auth *tokenAuth, logger *slog.Logger) (http.Handler, error) {
	if o.MCP == nil && o.Instances == nil {
		return nil, errors.New("front door: no MCP handler")
	}
	guard, err := newHostGuard(o.Listen, o.AllowedHosts)
	if err != nil {
		return nil, err
	}
	if !auth.enabled() && !o.Passthrough && !config.IsLoopbackListen(o.Listen) {
		return nil, fmt.Errorf("front door: refusing to serve %s without inbound tokens", o.Listen)
	}
	if o.Passthrough && o.Verify == nil {
		return nil, errors.New("front door: passthrough needs a Verify function")
	}
	if o.Passthrough && o.SignIn != nil {
		return nil, errors.New("front door: passthrough and sign-in are two modes: choose one")
	}
	forwarded, err := newForwarding(o.TrustedProxies, o.ClientIPHeader)
	if err != nil {
		return nil, err
	}
	origins := originPolicy{hostChecked: guard.enforce, forwarded: forwarded}
	if o.PublicURL != "" {
		if origins.public, err = config.PublicURLBase(o.PublicURL); err != nil {
			return nil, fmt.Errorf("front door: public URL: %w", err)
		}
	}
	protect := func(h http.Handler) http.Handler { return guard.wrap(auth.wrap(h)) }
	protectMetrics := protect
	if o.Passthrough {
		protect = func(h http.Handler) http.Handler { return guard.wrap(verifyCaller(o.Verify, h)) }
		protectMetrics = func(h http.Handler) http.Handler { return protect(requireVerified(h)) }
	}

	maxBody := orDefault(o.MaxBodyBytes, defaultMaxBodyBytes)
	serve := o.MCP
	if o.Instances != nil {
		serve = http.HandlerFunc(serveEndpoint)
	}
	admit := newAdmission(o.Memory, maxBody, o.Instances != nil)
	mcp := chooseOutput(limitBody(admitMemory(&messages{next: serve, admit: admit, logger: logger}, admit), maxBody))
	switch {
	case o.Instances == nil:
		mcp = protect(limitToDefault(auth, mcp))
	case o.Passthrough:
		mcp = guard.wrap(routeInstance(o.Instances, auth, verifyCaller(verifyAtEndpoint, mcp)))
	default:
		mcp = guard.wrap(auth.wrap(routeInstance(o.Instances, auth, mcp)))
	}
	mux := http.NewServeMux()
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		mux.Handle(method+" /mcp", mcp)
	}
	if o.Metrics != nil {
		mux.Handle("GET /metrics", protectMetrics(limitToEveryInstance(o.Instances, auth, o.Metrics)))
	}
	if auth.enabled() || o.Passthrough {
		// Every mode that can answer 401 serves where the challenge points.
		metadata := guard.wrap(http.HandlerFunc(auth.serveProtectedResourceMetadata))
		mux.Handle("GET "+protectedResourcePath, metadata)
		mux.Handle("GET "+protectedResourceMCP, metadata)
		mux.Handle("POST "+registrationPath, guard.wrap(refuseRegistration(auth, o.Passthrough)))
	}
	mux.HandleFunc("GET /healthz", serveHealth)
	trusted := func(r *http.Request) bool {
		return (!guard.enforce || guard.allowsRequest(r)) && !o.Passthrough && (!auth.enabled() || auth.verdictOf(r).accepted)
	}
	ready := readiness{all: o.Ready, one: o.ReadyInstance, names: o.Instances, scope: func(r *http.Request) instanceScope { return auth.verdictOf(r).instances }}
	mux.Handle("GET /readyz", readinessHandler(ready, trusted, orDefault(o.ReadyTimeout, defaultReadyTimeout)))
	var routes http.Handler = mux
	if o.Instances != nil {
		routes = instanceRoutes(mux, mcp, guard.wrap(serveInstanceMetadata(o.Instances, auth)), auth.enabled() || o.Passthrough)
	}
	// The origin policy comes first: the one token check of a sign-in
	// token needs the resource URL of the endpoint it is presented at.
	return withOriginPolicy(withRequestID(observe(routes, logger, logsample.New(o.Now)), auth, o.Passthrough, forwarded), origins), nil
}

// serveHealth answers liveness probes: the process is up.
func serveHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// writeJSON writes v as a JSON response that clients and proxies must not
// cache.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	closeAfterError(w, status)
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// writeError writes {"error": message} with the given status.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]string{"error": message})
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
