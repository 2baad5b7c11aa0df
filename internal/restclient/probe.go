// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"fmt"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Probe failure reasons.
const (
	ProbeNetwork  = "network"  // Dagu could not be reached in time
	ProbeTLS      = "tls"      // the TLS handshake failed
	ProbeAuth     = "auth"     // the credentials were missing, unreadable or rejected
	ProbeSurface  = "surface"  // the API key lacks the rest_api surface
	ProbeUpstream = "upstream" // Dagu answered, but not usefully
)

// ProbeResult is the outcome of one readiness probe.
type ProbeResult struct {
	OK bool
	// Reason is one of the Probe* constants when OK is false.
	Reason string
	// Detail describes the failure for operators; it never holds the key.
	Detail string
	// Status is Dagu's HTTP status when it answered with an error, else 0:
	// doctor tells a rejected key (401) from a refused read (403).
	Status int
	// Err is the failed call's error when OK is false, for callers that
	// wrap it (errors.Is, errors.As); like Detail, for operators only.
	Err error `json:"-"`
}

// Probe checks that Dagu is reachable and accepts the credentials with one
// small read: GET /dags?perPage=1.
func (c *Client) Probe(ctx context.Context) ProbeResult {
	one := 1
	_, err := c.ListDAGs(ctx, gen.ListDAGsParams{PerPage: &one})
	if err == nil {
		return ProbeResult{OK: true}
	}
	e, ok := AsError(err)
	if !ok {
		return ProbeResult{Reason: ProbeUpstream, Detail: "unexpected failure", Err: err}
	}
	return ProbeResult{Reason: probeReason(e), Detail: probeDetail(e), Status: e.Status, Err: err}
}

// ProbeReachable checks only that Dagu answers (GET /health, which needs no
// key on Dagu 1.29 and later): the readiness check of a passthrough gateway,
// which has no key of its own.
func (c *Client) ProbeReachable(ctx context.Context) ProbeResult {
	_, err := c.Health(ctx)
	if err == nil {
		return ProbeResult{OK: true}
	}
	e, ok := AsError(err)
	if !ok {
		return ProbeResult{Reason: ProbeUpstream, Detail: "unexpected failure", Err: err}
	}
	return ProbeResult{Reason: probeReason(e), Detail: probeDetail(e), Err: err}
}

func probeReason(e *Error) string {
	switch e.outcome() {
	case "tls":
		return ProbeTLS
	case "network", "timeout", "canceled":
		return ProbeNetwork
	case "credentials":
		return ProbeAuth
	case "http":
		if e.SurfaceDenied {
			return ProbeSurface
		}
		if e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden {
			return ProbeAuth
		}
	}
	return ProbeUpstream
}

// probeDetail is built from the failure's facts and status only; transport
// texts carry just the host and path, never credentials.
func probeDetail(e *Error) string {
	switch {
	case e.Status != 0:
		if e.Code != "" {
			return fmt.Sprintf("Dagu answered HTTP %d (%s)", e.Status, e.Code)
		}
		return fmt.Sprintf("Dagu answered HTTP %d", e.Status)
	case e.KeyUnreadable:
		return "the API key could not be read: " + e.Excerpt
	}
	return fmt.Sprintf("%s: %s", e.outcome(), e.Excerpt)
}
