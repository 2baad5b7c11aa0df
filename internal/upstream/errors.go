// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// transportFacts is the one table that turns the facts the REST client
// reports into the read tool's failure vocabulary. Rows are tried in
// order and the first that holds decides; a request the guard refused is
// an input the gateway rejects, and a call that got no answer for any
// other reason failed on the network.
//
// narrows marks Dagu's refusal (403) and a handler's not-found (404 with
// Dagu's error code; a router's 404 means a missing route) of what a
// read names: when Dagu showed the credential that before, what it may
// see has narrowed (Adapter.watch, grantBook.refused). Only the status
// and the structured code decide, never Dagu's message.
var transportFacts = []struct {
	holds   func(*restclient.Error) bool
	kind    model.FailureKind
	reason  model.FailureReason
	narrows bool
}{
	{func(e *restclient.Error) bool { return e.Status == http.StatusForbidden }, model.FailureHTTP, "", true},
	{func(e *restclient.Error) bool {
		return e.Status == http.StatusNotFound && !restclient.IsRouteMissing(e)
	}, model.FailureHTTP, "", true},
	{func(e *restclient.Error) bool { return e.Status != 0 }, model.FailureHTTP, "", false},
	{func(e *restclient.Error) bool { return e.Refused }, model.FailureInvalidInput, "", false},
	{func(e *restclient.Error) bool { return e.KeyUnreadable }, model.FailureCredentials, "", false},
	{func(e *restclient.Error) bool { return e.Busy }, model.FailureUnavailable, model.ReasonBusy, false},
	{func(e *restclient.Error) bool { return e.Canceled }, model.FailureCanceled, "", false},
	{func(e *restclient.Error) bool { return e.Timeout }, model.FailureTimeout, "", false},
	{func(e *restclient.Error) bool { return e.TLS }, model.FailureTLS, "", false},
	{func(e *restclient.Error) bool { return e.BodyLimit > 0 }, model.FailureTooLarge, "", false},
	{func(e *restclient.Error) bool { return e.Undecodable }, model.FailureDecode, "", false},
	{func(*restclient.Error) bool { return true }, model.FailureNetwork, "", false},
}

// narrowsGrant reports whether err carries Dagu's answer that the
// credential may not see, or Dagu does not find, what the read named (the
// narrows column of transportFacts). A failure the gateway built itself
// (a lookup in a valid answer, a rejected input) never does.
func narrowsGrant(err error) bool {
	re, ok := restclient.AsError(err)
	if !ok {
		return false
	}
	for _, row := range transportFacts {
		if row.holds(re) {
			return row.narrows
		}
	}
	return false
}

// failureOf converts any error of a read into the read tool's failure
// vocabulary: failures pass unchanged and REST client errors are
// translated. Anything else (a context error, a bug of the gateway's own)
// stays as it is, so the read tool answers it for what it is instead of
// blaming Dagu's answer.
func failureOf(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := model.AsFailure(err); ok {
		return err
	}
	re, ok := restclient.AsError(err)
	if !ok {
		return err
	}
	for _, row := range transportFacts {
		if row.holds(re) {
			return &model.Failure{Kind: row.kind, Status: re.Status, Reason: row.reason,
				SurfaceDenied: re.SurfaceDenied, RetryAfter: re.RetryAfter, Cause: err}
		}
	}
	return err
}

// withField returns err as a failure tagged with the input field it
// concerns.
func withField(err error, field string) error {
	f, ok := model.AsFailure(failureOf(err))
	if !ok {
		return err
	}
	c := *f
	c.Field = field
	return &c
}

// blame tags err with the input field at fault when it is an upstream HTTP
// error with one of the statuses; any other error is returned unchanged.
func blame(err error, field string, statuses ...int) error {
	if !isHTTP(err, statuses...) {
		return err
	}
	return withField(err, field)
}

// isHTTP reports whether err is an upstream HTTP answer with one of the
// statuses (any error status when none is given).
func isHTTP(err error, statuses ...int) bool {
	status, ok := httpStatus(err)
	return ok && (len(statuses) == 0 || slices.Contains(statuses, status))
}

// httpStatus returns the status of an upstream HTTP error answer.
func httpStatus(err error) (int, bool) {
	if re, ok := restclient.AsError(err); ok && re.Status != 0 {
		return re.Status, true
	}
	if f, ok := model.AsFailure(err); ok && f.Kind == model.FailureHTTP {
		return f.Status, true
	}
	return 0, false
}

// notFoundByCode reads Dagu's JSON error code where the status lies: Dagu
// 1.x answers a missing DAG's spec with 500 and code not_found. The code is
// a structured field of the answer, not message text.
func notFoundByCode(err error) error {
	re, ok := restclient.AsError(err)
	if !ok || re.Status == 0 || re.Status == http.StatusNotFound || re.Code != "not_found" {
		return err
	}
	return &model.Failure{Kind: model.FailureHTTP, Status: http.StatusNotFound, Cause: err}
}

// notFound is a lookup failure the adapter found in a valid answer.
// reason may be empty: the read tool then words the failure by field.
func notFound(route, field string, reason model.FailureReason, args ...string) *model.Failure {
	var a model.FailureArgs
	copy(a[:], args)
	return &model.Failure{Kind: model.FailureNotFound, Field: field, Reason: reason, Args: a,
		Cause: fmt.Errorf("dagu %s: no such %s", route, field)}
}

// unsupported is a read this Dagu server cannot answer, for reason; cause
// may be nil.
func unsupported(route string, reason model.FailureReason, cause error) *model.Failure {
	if cause == nil {
		cause = fmt.Errorf("dagu %s: unsupported", route)
	}
	return &model.Failure{Kind: model.FailureUnsupported, Reason: reason, Cause: cause}
}

// invalidInput is a value the adapter rejects before asking Dagu.
func invalidInput(route, field string, reason model.FailureReason) *model.Failure {
	return &model.Failure{Kind: model.FailureInvalidInput, Field: field, Reason: reason,
		Cause: fmt.Errorf("dagu %s: gateway rejected %s", route, field)}
}

// notForeachStep reports a step that exists but is not a foreach step.
func notForeachStep(route, step string) *model.Failure {
	return notFound(route, model.FieldStepName, model.ReasonNotForeachStep, step)
}

// ptr returns a pointer to v, or nil for the zero value, so an absent
// query value stays absent in the generated parameters.
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
