// SPDX-License-Identifier: Apache-2.0

package readtool

// Code is one of the contract's tool-level error codes.
type Code string

// The contract's error codes.
const (
	CodeUnauthenticated       Code = "unauthenticated"
	CodeUnauthorized          Code = "unauthorized"
	CodeInvalidToolInput      Code = "invalid_tool_input"
	CodeUnsupportedReadTarget Code = "unsupported_read_target"
	CodeInvalidResourceURI    Code = "invalid_resource_uri"
	CodeUnsupportedResource   Code = "unsupported_resource"
	CodeResourceNotFound      Code = "resource_not_found"
	CodeResourceUnavailable   Code = "resource_unavailable"
	CodeInternalError         Code = "internal_error"
)

// Error is the read tool's one error type. Its exported fields serialise to
// the contract's error object.
type Error struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Target  string         `json:"target,omitempty"`
	Field   string         `json:"field,omitempty"`
	URI     string         `json:"uri,omitempty"`
	Details map[string]any `json:"details,omitempty"`
	// cause is logged, never returned to the client.
	cause error
}

// Error returns the message.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the logged cause.
func (e *Error) Unwrap() error { return e.cause }

func newError(code Code, message string) *Error {
	return &Error{Code: code, Message: message}
}

func (e *Error) withField(field string) *Error {
	e.Field = field
	return e
}

func (e *Error) withDetails(details map[string]any) *Error {
	e.Details = details
	return e
}

// withDetail adds one key to details.
func (e *Error) withDetail(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

func (e *Error) withCause(err error) *Error {
	e.cause = err
	return e
}

// fieldsError reports one or several offending fields: one goes to `field`,
// several go to `details.fields` (the contract's rule).
func fieldsError(code Code, message string, fields []string) *Error {
	e := newError(code, message)
	if len(fields) == 1 {
		return e.withField(fields[0])
	}
	return e.withDetails(map[string]any{"fields": fields})
}
