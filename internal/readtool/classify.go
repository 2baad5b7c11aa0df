// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"errors"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// classify turns any error of a read into the contract's error object,
// decorated with the call's target and URI. Causes are kept for the log:
// an error the tool built itself keeps the cause it was built with (err is
// that error or wraps it, so it cannot be its own cause).
func classify(err error, c *call) *Error { return classifyRead(err, c, false) }

// classifyRead is classify for a read made with the gateway's own Dagu key
// or, when callerKey, with the caller's (passthrough): the table's
// messages then blame the caller's key, not the operator's.
func classifyRead(err error, c *call, callerKey bool) *Error {
	var e *Error
	if errors.As(err, &e) {
		decorate(e, c)
		return e
	}
	e = classifyExternal(err, c, callerKey)
	decorate(e, c)
	return e.withCause(err)
}

// classifyExternal maps a failure a port reported, or the read's own end
// (its deadline passed or the caller went away before any port said so).
// Anything else is a bug of the gateway's own.
func classifyExternal(err error, c *call, callerKey bool) *Error {
	f, ok := model.AsFailure(err)
	if !ok {
		f, ok = readEnded(err)
	}
	if !ok {
		return internalError()
	}
	return fromFailure(f, c, callerKey)
}

// readEnded is the failure of a read whose context ended: one the caller
// may retry.
func readEnded(err error) (*model.Failure, bool) {
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, false
	}
	return &model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonReadEnded, Cause: err}, true
}

func internalError() *Error {
	return newError(CodeInternalError, "The gateway failed unexpectedly while handling the read.")
}

// fromFailure maps one port failure through the table of failures.go.
func fromFailure(f *model.Failure, c *call, callerKey bool) *Error {
	row, ok := failureRowOf(f)
	if !ok {
		return internalError()
	}
	code := codeFor(row, c)
	field := f.Field
	if code == CodeResourceNotFound && field == "" {
		field = defaultNotFoundField(c)
	}
	e := placeField(newError(code, messageFor(row, f, c, field, callerKey)), c, field)
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

// defaultNotFoundField names the input whose lookup failed when the
// upstream did not say: the most specific identifier of the target.
func defaultNotFoundField(c *call) string {
	if c.spec.notFound == nil {
		return ""
	}
	return c.spec.notFound(c)
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
