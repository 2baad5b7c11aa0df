package restclient

import (
	"fmt"
	"net/http"
	"slices"
)

// Input fields the adapter blames, spelled as the read tool's inputs.
const (
	fieldName         = "name"
	fieldDAGRunID     = "dagRunId"
	fieldSubRunID     = "subRunId"
	fieldStepName     = "stepName"
	fieldItem         = "item"
	fieldBodyStepName = "bodyStepName"
	fieldCursor       = "cursor"
	fieldWorkspace    = "workspace"
	fieldPath         = "path"
	fieldPrefix       = "prefix"
	fieldStream       = "stream"
	fieldParent       = "parent"
)

// Agent-facing explanations of what this Dagu server cannot answer.
const (
	detailWikiDisabled = "The wiki is not enabled on this Dagu server (it answered 403 for wiki routes)."
	detailBodyStepLogs = "Body-step logs of foreach items need a Dagu server with per-item foreach records " +
		"(the /foreach REST routes); this server does not offer them."
	detailLiveForeach = "Live per-item progress of a running foreach step needs a Dagu server with per-item " +
		"foreach records; this server reports items only after the step finishes."
	detailNestedForeach = "Items of nested foreach steps need a Dagu server with per-item foreach records " +
		"(the /foreach REST routes); this server reports only the top-level items of a finished foreach step."
	detailForeachSummary = "The gateway could not read the foreach summary this Dagu server wrote to the " +
		"step's output, so it cannot report the step's items."
	detailBadCursor = "The cursor was not issued by this gateway or is damaged; repeat the list without it."
)

// blame tags err with the input field at fault when it is an upstream HTTP
// error with one of the statuses; any other error is returned unchanged.
func blame(err error, field string, statuses ...int) error {
	e, ok := AsError(err)
	if !ok || e.Kind != KindHTTP || !slices.Contains(statuses, e.Status) {
		return err
	}
	return WithField(err, field)
}

// notFound is a lookup failure the adapter found in a valid answer.
// detail may be empty: the read tool then writes its own message for field.
func notFound(route, field, detail string) *Error {
	return &Error{Route: route, Kind: KindNotFound, Field: field, Detail: detail, Message: "no such " + field}
}

// unsupported is a read this Dagu server cannot answer; cause may be nil.
func unsupported(route, detail string, cause error) *Error {
	return &Error{Route: route, Kind: KindUnsupported, Detail: detail, Message: detail, Cause: cause}
}

// invalidInput is a value the adapter rejects before asking Dagu. It has
// the shape of Dagu's own 400 so the read tool reports it the same way.
func invalidInput(route, field, detail string) *Error {
	return &Error{
		Route: route, Kind: KindHTTP, Status: http.StatusBadRequest, Code: "bad_request",
		Field: field, Detail: detail, Message: "gateway rejected " + field,
	}
}

// notForeachStep reports a step that exists but is not a foreach step.
func notForeachStep(route, step string) *Error {
	return notFound(route, fieldStepName, fmt.Sprintf("Step %q is not a foreach step.", step))
}
