// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies how an upstream call failed.
type Kind int

// Failure kinds. KindHTTP means Dagu answered with a non-2xx status; every
// other kind means no usable answer arrived.
const (
	KindHTTP        Kind = iota + 1 // Dagu answered with an error status
	KindTimeout                     // the call's deadline passed
	KindCanceled                    // the caller went away
	KindNetwork                     // connect, reset, EOF and other transport failures
	KindTLS                         // certificate or handshake failure
	KindTooLarge                    // the body exceeded the response size cap
	KindDecode                      // a 2xx body that is not the JSON we expect
	KindRefused                     // the transport guard refused the request
	KindCredentials                 // the API key could not be read (nothing was sent)
	KindBusy                        // the gateway's own cap on requests to Dagu refused the call
)

var kindNames = map[Kind]string{
	KindHTTP: "http", KindTimeout: "timeout", KindCanceled: "canceled",
	KindNetwork: "network", KindTLS: "tls", KindTooLarge: "too_large",
	KindDecode: "decode", KindRefused: "refused", KindCredentials: "credentials", KindBusy: "busy",
}

// String names the kind for logs and readiness reasons.
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "unknown"
}

// Error is the one error type upstream calls return. It records what
// happened on the wire; the read tool maps it to a contract error code.
// Message is Dagu's own text (or a transport description) for logs only: it
// is never shown to an agent.
type Error struct {
	// Route is the route template that was called, e.g. "/dags/{fileName}".
	Route string
	Kind  Kind
	// Status is the HTTP status for KindHTTP, else 0.
	Status int
	// Code is Dagu's JSON error code ("not_found", "bad_request", ...) when
	// the body carried one.
	Code string
	// Message is Dagu's message or the transport error text (logs only).
	Message string
	// SurfaceDenied is true for the plain-text 403 Dagu sends when the API
	// key lacks the rest_api surface.
	SurfaceDenied bool
	// RetryAfter is how long a KindBusy caller should wait.
	RetryAfter time.Duration
	// Cause is the underlying error, if any.
	Cause error
}

// Error describes the failure for logs.
func (e *Error) Error() string {
	if e.Kind == KindHTTP {
		return fmt.Sprintf("dagu %s: HTTP %d %s: %s", e.Route, e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("dagu %s: %s: %s", e.Route, e.Kind, e.Message)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Cause }

// AsError returns err as *Error when it is (or wraps) one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsStatus reports whether err is an upstream HTTP error with the status.
func IsStatus(err error, status int) bool {
	e, ok := AsError(err)
	return ok && e.Kind == KindHTTP && e.Status == status
}

// IsRouteMissing reports whether err is Dagu's router-level "404 page not
// found": a 404 whose body was not a JSON error object (Code stays empty; a
// handler's 404 always carries code "not_found"). Older servers answer a
// route they do not have this way, so it signals a capability change.
func IsRouteMissing(err error) bool {
	e, ok := AsError(err)
	return ok && e.Kind == KindHTTP && e.Status == 404 && e.Code == ""
}
