// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"errors"
	"fmt"
	"time"
)

// Error is the one error type of this package. It states facts about one
// failed call: what Dagu answered, or why no usable answer arrived. It
// gives them no meaning for the read tool's contract; package upstream
// does that, once, in one table. At most one of the facts below Excerpt
// holds; a sent request with no answer and none of them failed on the
// network (connect, reset, EOF).
type Error struct {
	// Route is the route template that was called, e.g. "/dags/{fileName}".
	Route string
	// Status is the HTTP status of Dagu's error answer (not 2xx); 0 when
	// no error answer arrived.
	Status int
	// Code is Dagu's JSON error code ("not_found", "bad_request", ...) when
	// the error answer carried one.
	Code string
	// Excerpt is a bounded excerpt of Dagu's message or body text, or the
	// transport's error text: for logs only, never shown to an agent.
	Excerpt string
	// SurfaceDenied is true for the plain-text 403 Dagu sends when the API
	// key lacks the rest_api surface.
	SurfaceDenied bool

	// Refused: the transport guard refused the request; nothing was sent.
	Refused bool
	// KeyUnreadable: the API key could not be read; nothing was sent.
	KeyUnreadable bool
	// Busy: the gateway's own cap on requests to Dagu refused the call;
	// nothing was sent. RetryAfter says how long to wait.
	Busy       bool
	RetryAfter time.Duration
	// Canceled: the caller went away before an answer arrived.
	Canceled bool
	// Timeout: the call's deadline passed before an answer arrived.
	Timeout bool
	// TLS: the certificate or the handshake failed.
	TLS bool
	// BodyLimit, when positive, is the size cap in bytes the answer's body
	// exceeded.
	BodyLimit int64
	// Undecodable: a 2xx answer whose body is not the JSON the route
	// promises.
	Undecodable bool
	// ContentType is the media type of an Undecodable answer that was not
	// JSON at all (text/html: the URL reaches a web page, not Dagu's API).
	ContentType string
	// PlainHTTP: the URL says https but the server answered the TLS
	// handshake in plain HTTP (http.ErrSchemeMismatch).
	PlainHTTP bool

	// Cause is the underlying error, if any.
	Cause error
}

// Error describes the failure for logs.
// An empty code or excerpt leaves no stray separator ("HTTP 401", not
// "HTTP 401 : ").
func (e *Error) Error() string {
	what := e.outcome()
	if e.Status != 0 {
		what = fmt.Sprintf("HTTP %d", e.Status)
		if e.Code != "" {
			what += " " + e.Code
		}
	}
	if e.Excerpt == "" {
		return fmt.Sprintf("dagu %s: %s", e.Route, what)
	}
	return fmt.Sprintf("dagu %s: %s: %s", e.Route, what, e.Excerpt)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Cause }

// outcome names the fact that holds, for logs, metrics and readiness
// reasons: "http" for an error answer.
func (e *Error) outcome() string {
	switch {
	case e.Status != 0:
		return "http"
	case e.Refused:
		return "refused"
	case e.KeyUnreadable:
		return "credentials"
	case e.Busy:
		return "busy"
	case e.Canceled:
		return "canceled"
	case e.Timeout:
		return "timeout"
	case e.TLS:
		return "tls"
	case e.BodyLimit > 0:
		return "too_large"
	case e.Undecodable:
		return "decode"
	}
	return "network"
}

// AsError returns err as *Error when it is (or wraps) one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsStatus reports whether err is an upstream HTTP error with the status.
func IsStatus(err error, status int) bool {
	e, ok := AsError(err)
	return ok && e.Status != 0 && e.Status == status
}

// IsRouteMissing reports whether err is Dagu's router-level "404 page not
// found": a 404 whose body was not a JSON error object (Code stays empty; a
// handler's 404 always carries code "not_found"). Older servers answer a
// route they do not have this way, so it signals a capability change.
func IsRouteMissing(err error) bool {
	e, ok := AsError(err)
	return ok && e.Status == 404 && e.Code == ""
}
