// SPDX-License-Identifier: Apache-2.0

package restclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"mime"
	"net"
	"net/http"
	"strings"
)

// surfaceDeniedText is the first line of the plain-text 403 Dagu sends when
// an API key lacks the rest_api surface.
const surfaceDeniedText = "API key is not allowed for this surface"

// maxExcerpt bounds the text kept in Error.Excerpt.
const maxExcerpt = 512

// httpError records a non-2xx answer. A JSON body {code, message} fills
// Code and Excerpt; any other body is kept as text.
func httpError(route string, status int, contentType string, body []byte) *Error {
	e := &Error{Route: route, Status: status}
	if isJSON(contentType) {
		var payload struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(body, &payload) == nil {
			e.Code = payload.Code
			e.Excerpt = clip(payload.Message)
			return e
		}
	}
	text := strings.TrimSpace(string(body))
	e.Excerpt = clip(text)
	// The one place a body text is inspected: Dagu's plain-text 403 for a
	// key without the rest_api surface has no code, and the operator needs
	// a specific hint. Nothing else depends on Dagu's wording.
	firstLine, _, _ := strings.Cut(text, "\n")
	e.SurfaceDenied = status == http.StatusForbidden && !isJSON(contentType) &&
		strings.TrimSpace(firstLine) == surfaceDeniedText
	return e
}

func isJSON(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"))
}

func clip(s string) string {
	if len(s) <= maxExcerpt {
		return s
	}
	return strings.ToValidUTF8(s[:maxExcerpt], "") + "…"
}

// transportError records the facts of a failure that produced no HTTP
// answer. ctx is the call's own context (with the per-call deadline).
func transportError(ctx context.Context, route string, err error) *Error {
	if e, ok := AsError(err); ok {
		return withRoute(e, route)
	}
	e := &Error{Route: route, Excerpt: clip(err.Error()), Cause: err, PlainHTTP: errors.Is(err, http.ErrSchemeMismatch)}
	switch {
	case errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled):
		e.Canceled = true
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e.Timeout = true
	case isTLSError(err):
		e.TLS = true
	}
	return e
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func isTLSError(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		invalidCert      x509.CertificateInvalidError
		hostname         x509.HostnameError
		verification     *tls.CertificateVerificationError
		record           tls.RecordHeaderError
		alert            tls.AlertError
	)
	return errors.As(err, &unknownAuthority) || errors.As(err, &invalidCert) ||
		errors.As(err, &hostname) || errors.As(err, &verification) ||
		errors.As(err, &record) || errors.As(err, &alert)
}

// decodeError reports a 2xx body that is not the JSON the route promises.
func decodeError(route string, err error) *Error {
	if e, ok := AsError(err); ok {
		return withRoute(e, route)
	}
	return &Error{Route: route, Undecodable: true, Excerpt: clip("undecodable answer: " + err.Error()), Cause: err}
}

// withRoute returns e, or a copy naming route when e names none (the guard
// cannot name a route for a path that matched nothing).
func withRoute(e *Error, route string) *Error {
	if e.Route != "" {
		return e
	}
	c := *e
	c.Route = route
	return &c
}
