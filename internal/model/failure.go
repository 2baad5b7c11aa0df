// SPDX-License-Identifier: Apache-2.0

package model

import (
	"errors"
	"fmt"
	"time"
)

// FailureKind says how a read failed, in the terms the contract's error
// codes are chosen by. Every port of the read tool (the Dagu upstream, the
// workbook profiler, the reference library) reports failures as *Failure
// values of these kinds.
type FailureKind uint8

// Failure kinds.
const (
	// FailureHTTP: Dagu answered with an error status (Failure.Status).
	FailureHTTP FailureKind = iota + 1
	// FailureTimeout: the call's deadline passed.
	FailureTimeout
	// FailureCanceled: the caller went away.
	FailureCanceled
	// FailureNetwork: connect, reset, EOF and other transport failures.
	FailureNetwork
	// FailureTLS: certificate or handshake failure.
	FailureTLS
	// FailureTooLarge: an answer exceeded the gateway's size cap.
	FailureTooLarge
	// FailureDecode: a 2xx answer that is not what the route promises.
	FailureDecode
	// FailureInvalidInput: the gateway refused a value before asking anyone.
	FailureInvalidInput
	// FailureNotFound: a valid answer holds no such thing (no HTTP 404).
	FailureNotFound
	// FailureUnsupported: the server behind the gateway lacks what the read needs.
	FailureUnsupported
	// FailureUnavailable: the gateway cannot serve the read now (a local
	// limit or a missing local resource); retrying later may help.
	FailureUnavailable
	// FailureForbidden: the gateway itself may not read the resource.
	FailureForbidden
	// FailureCredentials: the gateway could not read its own credential.
	FailureCredentials
)

var failureKindNames = map[FailureKind]string{
	FailureHTTP: "http", FailureTimeout: "timeout", FailureCanceled: "canceled",
	FailureNetwork: "network", FailureTLS: "tls", FailureTooLarge: "too_large",
	FailureDecode: "decode", FailureInvalidInput: "invalid_input", FailureNotFound: "not_found",
	FailureUnsupported: "unsupported", FailureUnavailable: "unavailable",
	FailureForbidden: "forbidden", FailureCredentials: "credentials",
}

// String names the kind for logs.
func (k FailureKind) String() string {
	if s, ok := failureKindNames[k]; ok {
		return s
	}
	return "unknown"
}

// Failure is the one failure vocabulary between the read tool and its
// ports. The read tool turns Kind (and Status for FailureHTTP, or Reason)
// into a contract error code and the agent's message in one table
// (readtool/failures.go); Field names the input at fault. Cause is logged,
// never shown. The Dagu upstream fills it from the REST client's facts in
// one table (upstream/errors.go) and names what else it found as a Reason;
// it writes no agent-facing text.
type Failure struct {
	Kind FailureKind
	// Status is the upstream HTTP status for FailureHTTP, else 0.
	Status int
	// Field names the input field at fault (a Field* constant) or, for a
	// query parameter, the parameter (a Param* constant); "" when unknown.
	Field string
	// Reason names a fact the kind alone does not tell (why a read is
	// unsupported, which value was refused); the read tool words it.
	Reason FailureReason
	// Args are the values Reason's message names, in the order its
	// constant documents.
	Args FailureArgs
	// Detail is a port's own agent-safe message (the workbook profiler's);
	// "" lets the read tool write one.
	Detail string
	// SurfaceDenied marks Dagu's 403 for a key without the rest_api surface.
	SurfaceDenied bool
	// RetryAfter, when set, is how long the caller should wait before
	// trying again (a limit of the gateway's own refused the read).
	RetryAfter time.Duration
	// Cause is the underlying error, for the log only.
	Cause error
}

// Error describes the failure for logs.
func (f *Failure) Error() string {
	msg := f.Kind.String()
	if f.Kind == FailureHTTP {
		msg = fmt.Sprintf("http %d", f.Status)
	}
	if f.Field != "" {
		msg += " (" + f.Field + ")"
	}
	switch {
	case f.Cause != nil:
		return msg + ": " + f.Cause.Error()
	case f.Detail != "":
		return msg + ": " + f.Detail
	case f.Reason != "":
		return msg + ": " + string(f.Reason)
	}
	return msg
}

// Unwrap returns the cause.
func (f *Failure) Unwrap() error { return f.Cause }

// AsFailure returns err as *Failure when it is (or wraps) one.
func AsFailure(err error) (*Failure, bool) {
	var f *Failure
	ok := errors.As(err, &f)
	return f, ok
}

// IsNotFound reports whether err says the addressed thing does not exist:
// a FailureNotFound or an upstream 404.
func IsNotFound(err error) bool {
	f, ok := AsFailure(err)
	return ok && (f.Kind == FailureNotFound || (f.Kind == FailureHTTP && f.Status == 404))
}
