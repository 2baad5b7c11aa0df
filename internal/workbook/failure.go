// SPDX-License-Identifier: Apache-2.0

package workbook

import "github.com/dagu-mcp-gateway/gateway/internal/model"

// failureKinds translates the profiler's kinds into the read tool's failure
// vocabulary.
var failureKinds = map[Kind]model.FailureKind{
	KindInvalidInput: model.FailureInvalidInput,
	KindNotFound:     model.FailureNotFound,
	KindUnavailable:  model.FailureUnavailable,
	KindUnauthorized: model.FailureForbidden,
}

// As lets errors.As view an *Error as the read tool's *model.Failure: the
// message becomes the agent-facing detail, the field and cause carry over.
func (e *Error) As(target any) bool {
	p, ok := target.(**model.Failure)
	if !ok {
		return false
	}
	kind, known := failureKinds[e.Kind]
	if !known {
		kind = model.FailureUnavailable
	}
	*p = &model.Failure{Kind: kind, Field: e.Field, Detail: e.Message, Cause: e.Cause, RetryAfter: e.RetryAfter}
	return true
}
