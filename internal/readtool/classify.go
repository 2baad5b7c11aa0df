package readtool

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/dagu-mcp-gateway/gateway/internal/reference"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
	"github.com/dagu-mcp-gateway/gateway/internal/workbook"
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

// kindCodes maps failures that carry no HTTP status.
var kindCodes = map[restclient.Kind]Code{
	restclient.KindTimeout:     CodeResourceUnavailable,
	restclient.KindCanceled:    CodeResourceUnavailable,
	restclient.KindNetwork:     CodeResourceUnavailable,
	restclient.KindTLS:         CodeResourceUnavailable,
	restclient.KindTooLarge:    CodeResourceUnavailable,
	restclient.KindUnsupported: CodeResourceUnavailable,
	restclient.KindNotFound:    CodeResourceNotFound,
	restclient.KindDecode:      CodeInternalError,
	restclient.KindCredentials: CodeResourceUnavailable,
}

// workbookCodes maps the workbook profiler's error kinds.
var workbookCodes = map[workbook.Kind]Code{
	workbook.KindInvalidInput: CodeInvalidToolInput,
	workbook.KindNotFound:     CodeResourceNotFound,
	workbook.KindUnavailable:  CodeResourceUnavailable,
	workbook.KindUnauthorized: CodeUnauthorized,
}

// classify turns any error of a read into the contract's error object,
// decorated with the call's target and URI. Causes are kept for the log.
func classify(err error, c *call) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
	case isReferenceNotFound(err):
		e = newError(CodeResourceNotFound, fmt.Sprintf("Reference topic %q was not found.", c.in.get(fName))).withField(fName)
	default:
		e = classifyExternal(err, c)
	}
	decorate(e, c)
	return e.withCause(err)
}

func isReferenceNotFound(err error) bool { return errors.Is(err, reference.ErrNotFound) }

func classifyExternal(err error, c *call) *Error {
	if ue, ok := restclient.AsError(err); ok {
		return fromUpstream(ue, c)
	}
	var we *workbook.Error
	if errors.As(err, &we) {
		return newError(workbookCodes[we.Kind], we.Message).withField(we.Field)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return newError(CodeResourceUnavailable, "The read did not finish in time; try again.")
	}
	return internalError()
}

func internalError() *Error {
	return newError(CodeInternalError, "The gateway failed unexpectedly while handling the read.")
}

// fromUpstream maps one upstream failure through the tables above.
func fromUpstream(ue *restclient.Error, c *call) *Error {
	code, ok := upstreamCode(ue, c)
	if !ok {
		return internalError()
	}
	field := ue.Field
	if code == CodeResourceNotFound && field == "" {
		field = defaultNotFoundField(c)
	}
	e := newError(code, upstreamMessage(code, ue, c, field))
	return placeField(e, c, field)
}

// placeField reports the input at fault. A value that lives inside the
// query (a runs cursor, say) is reported as the query field with the
// parameter named in details; in URI mode decorate moves it to `uri`.
func placeField(e *Error, c *call, field string) *Error {
	spec := targets[c.target]
	switch {
	case field == "" || spec.allows(field):
		return e.withField(field)
	case spec.allows(fQuery):
		return e.withField(fQuery).withDetails(map[string]any{"parameter": field})
	}
	return e
}

func upstreamCode(ue *restclient.Error, c *call) (Code, bool) {
	switch {
	case ue.Kind == restclient.KindRefused || (ue.Kind == restclient.KindHTTP && ue.Status == http.StatusBadRequest):
		if c.mode == uriMode {
			return CodeInvalidResourceURI, true
		}
		return CodeInvalidToolInput, true
	case ue.Kind == restclient.KindHTTP:
		code, ok := statusCodes[ue.Status]
		return code, ok
	}
	code, ok := kindCodes[ue.Kind]
	return code, ok
}

// upstreamMessage is written by the gateway: Dagu's own text is logged,
// never shown, because it can name server paths.
func upstreamMessage(code Code, ue *restclient.Error, c *call, field string) string {
	if ue.Detail != "" {
		return ue.Detail
	}
	switch code {
	case CodeUnauthenticated:
		return "Dagu did not accept the gateway's credentials; the operator must check the gateway's Dagu API key."
	case CodeUnauthorized:
		if ue.SurfaceDenied {
			return "The gateway's Dagu API key lacks the rest_api surface; the operator must allow REST access for the key."
		}
		return "The gateway's Dagu credentials are not allowed to read this resource."
	case CodeResourceNotFound:
		return notFoundMessage(c, field)
	case CodeInvalidToolInput, CodeInvalidResourceURI:
		if field != "" {
			return fmt.Sprintf("Dagu rejected the value of %s.", field)
		}
		return "Dagu rejected the request's parameters."
	}
	return unavailableMessage(ue)
}

func unavailableMessage(ue *restclient.Error) string {
	switch ue.Kind {
	case restclient.KindTimeout:
		return "Dagu did not answer within the gateway's upstream timeout; try again or narrow the query."
	case restclient.KindTooLarge:
		return "Dagu's answer is larger than the gateway's response size limit; narrow the query (a smaller perPage, limit, tail or head)."
	case restclient.KindTLS:
		return "The TLS handshake with Dagu failed; the operator must check the gateway's CA settings."
	case restclient.KindCredentials:
		return "The gateway cannot read its Dagu API key file; the operator must check DAGU_API_KEY_FILE."
	case restclient.KindNetwork, restclient.KindCanceled:
		return "The gateway could not reach Dagu; try again shortly."
	}
	return fmt.Sprintf("Dagu is temporarily unavailable (HTTP %d); try again shortly.", ue.Status)
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
	case e.URI == "" && targets[c.target].singular:
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
