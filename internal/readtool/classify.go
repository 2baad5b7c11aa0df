// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// statusCodes is the one table that maps an upstream HTTP status to a
// contract code. 400 depends on the addressing mode and is handled apart;
// every status not listed is an internal error.
var statusCodes = map[int]Code{
	http.StatusUnauthorized:          CodeUnauthenticated,
	http.StatusForbidden:             CodeUnauthorized,
	http.StatusNotFound:              CodeResourceNotFound,
	http.StatusRequestTimeout:        CodeResourceUnavailable,
	http.StatusTooManyRequests:       CodeResourceUnavailable,
	499:                              CodeResourceUnavailable, // Dagu: request canceled
	http.StatusBadGateway:            CodeResourceUnavailable,
	http.StatusServiceUnavailable:    CodeResourceUnavailable,
	http.StatusGatewayTimeout:        CodeResourceUnavailable,
	http.StatusRequestEntityTooLarge: CodeResourceUnavailable,
}

// kindCodes maps the failures that carry no HTTP status. FailureHTTP goes
// through statusCodes; input refusals depend on the addressing mode.
var kindCodes = map[model.FailureKind]Code{
	model.FailureTimeout:      CodeResourceUnavailable,
	model.FailureCanceled:     CodeResourceUnavailable,
	model.FailureNetwork:      CodeResourceUnavailable,
	model.FailureTLS:          CodeResourceUnavailable,
	model.FailureTooLarge:     CodeResourceUnavailable,
	model.FailureUnsupported:  CodeResourceUnavailable,
	model.FailureUnavailable:  CodeResourceUnavailable,
	model.FailureCredentials:  CodeResourceUnavailable,
	model.FailureNotFound:     CodeResourceNotFound,
	model.FailureForbidden:    CodeUnauthorized,
	model.FailureDecode:       CodeInternalError,
	model.FailureInvalidInput: CodeInvalidToolInput,
}

// classify turns any error of a read into the contract's error object,
// decorated with the call's target and URI. Causes are kept for the log:
// an error the tool built itself keeps the cause it was built with (err is
// that error or wraps it, so it cannot be its own cause).
func classify(err error, c *call) *Error {
	var e *Error
	if errors.As(err, &e) {
		decorate(e, c)
		return e
	}
	e = classifyExternal(err, c)
	decorate(e, c)
	return e.withCause(err)
}

// classifyExternal maps a failure a port reported, or the read's own end
// (its deadline passed or the caller went away before any port said so).
// Anything else is a bug of the gateway's own.
func classifyExternal(err error, c *call) *Error {
	f, ok := model.AsFailure(err)
	if !ok {
		f, ok = readEnded(err)
	}
	if !ok {
		return internalError()
	}
	return fromFailure(f, c)
}

// readEnded is the failure of a read whose context ended: one the caller
// may retry.
func readEnded(err error) (*model.Failure, bool) {
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, false
	}
	return &model.Failure{Kind: model.FailureUnavailable, Detail: "The read did not finish in time; try again.", Cause: err}, true
}

func internalError() *Error {
	return newError(CodeInternalError, "The gateway failed unexpectedly while handling the read.")
}

// fromFailure maps one port failure through the tables above.
func fromFailure(f *model.Failure, c *call) *Error {
	code, ok := failureCode(f, c)
	if !ok {
		return internalError()
	}
	field := f.Field
	if code == CodeResourceNotFound && field == "" {
		field = defaultNotFoundField(c)
	}
	e := placeField(newError(code, failureMessage(code, f, c, field)), c, field)
	if f.RetryAfter > 0 {
		e = e.withDetail("retryAfterMs", f.RetryAfter.Milliseconds())
	}
	return e
}

// placeField reports the input at fault. A value that lives inside the
// query (a runs cursor, say) is reported as the query field with the
// parameter named in details; in URI mode decorate moves it to `uri`.
func placeField(e *Error, c *call, field string) *Error {
	spec := c.spec
	switch {
	case field == "" || spec.allows(field):
		return e.withField(field)
	case spec.allows(fQuery):
		return e.withField(fQuery).withDetails(map[string]any{"parameter": field})
	}
	return e
}

func failureCode(f *model.Failure, c *call) (Code, bool) {
	var code Code
	var ok bool
	if f.Kind == model.FailureHTTP {
		code, ok = statusCodes[f.Status]
		if f.Status == http.StatusBadRequest {
			code, ok = CodeInvalidToolInput, true
		}
	} else {
		code, ok = kindCodes[f.Kind]
	}
	if code == CodeInvalidToolInput && c.mode == uriMode {
		code = CodeInvalidResourceURI
	}
	return code, ok
}

// failureMessage is written by the gateway: Dagu's own text is logged,
// never shown, because it can name server paths.
func failureMessage(code Code, f *model.Failure, c *call, field string) string {
	if f.Detail != "" {
		return f.Detail
	}
	switch code {
	case CodeUnauthenticated:
		return "Dagu did not accept the gateway's credentials; the operator must check the gateway's Dagu API key."
	case CodeUnauthorized:
		if f.SurfaceDenied {
			return "The gateway's Dagu API key lacks the rest_api surface; the operator must allow REST access for the key."
		}
		return "The gateway's Dagu credentials are not allowed to read this resource."
	case CodeResourceNotFound:
		return notFoundMessage(c, field)
	case CodeInvalidToolInput, CodeInvalidResourceURI:
		if f.Kind == model.FailureInvalidInput {
			// The gateway's transport guard refused it: Dagu never saw it.
			return "The gateway does not send this request to Dagu: a value in it cannot be sent safely."
		}
		if field != "" {
			return fmt.Sprintf("Dagu rejected the value of %s.", field)
		}
		return "Dagu rejected the request's parameters."
	case CodeInternalError:
		return "Dagu's answer could not be read: it is not the JSON this route returns."
	}
	return unavailableMessage(f)
}

func unavailableMessage(f *model.Failure) string {
	switch f.Kind {
	case model.FailureTimeout:
		return "Dagu did not answer within the gateway's upstream timeout; try again or narrow the query."
	case model.FailureTooLarge:
		return "Dagu's answer is larger than the gateway's response size limit; narrow the query (a smaller perPage, limit, tail or head)."
	case model.FailureTLS:
		return "The TLS handshake with Dagu failed; the operator must check the gateway's CA settings."
	case model.FailureCredentials:
		return "The gateway cannot read its Dagu API key file; the operator must check DAGU_API_KEY_FILE."
	case model.FailureNetwork, model.FailureCanceled:
		return "The gateway could not reach Dagu; try again shortly."
	case model.FailureHTTP:
		return fmt.Sprintf("Dagu is temporarily unavailable (HTTP %d); try again shortly.", f.Status)
	}
	return "The read cannot be served right now; try again shortly."
}

// decorate adds the error object's optional `target` and `uri` where the
// contract requires them.
func decorate(e *Error, c *call) {
	if c == nil {
		return
	}
	if e.Target == "" {
		e.Target = c.target
	}
	switch {
	case c.mode == uriMode:
		e.URI = c.inputURI
		blameURI(e)
	case e.URI == "" && c.spec != nil && c.spec.singular:
		e.URI = c.uri
	}
}

// blameURI names `uri` as the field of a URI-mode failure the caller's
// value caused: in URI mode it is the only input field. The part of the URI
// at fault moves to details.segment (or stays in details.parameter).
func blameURI(e *Error) {
	switch e.Code {
	case CodeInvalidResourceURI, CodeUnsupportedResource, CodeResourceNotFound:
	default:
		e.Field = ""
		return
	}
	if e.Field != "" && e.Field != fURI && e.Field != fQuery {
		if e.Details == nil {
			e.Details = map[string]any{}
		}
		e.Details["segment"] = e.Field
	}
	e.Field = fURI
}
