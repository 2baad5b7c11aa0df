// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// failureRow turns one fact a port reported into the contract's code and
// the message the agent reads. The message is written by the gateway:
// Dagu's own text is logged, never shown, because it can name server
// paths. A failure that carries its own Detail keeps it.
type failureRow struct {
	holds func(*model.Failure) bool
	code  Code
	// text is the message when the gateway reads Dagu with its own key.
	text func(f *model.Failure, c *call, field string) string
	// callerKeyText, when set, replaces text for a gateway that reads Dagu
	// with each caller's own key (passthrough): the key at fault is the
	// caller's, so the message must not send the caller to the operator.
	callerKeyText string
}

// failureRows is the one table from failure facts to contract codes and
// messages. Rows are tried in order and the first that holds decides; a
// failure no row holds is an internal error. A 400 or an input refusal is
// invalid_resource_uri in URI mode (codeFor).
var failureRows = []failureRow{
	// Facts a port named (model.FailureReason): the kind alone does not
	// tell them.
	{reason(model.ReasonReadEnded), CodeResourceUnavailable, fixed("The read did not finish in time; try again."), ""},
	{reason(model.ReasonBusy), CodeResourceUnavailable,
		fixed("The gateway is already sending as many requests to Dagu as it allows; try again shortly."), ""},
	{reason(model.ReasonMemoryShare), CodeResourceUnavailable,
		fixed("Your reads in flight already hold your share of the gateway's memory; wait for them, or try again after details.retryAfterMs."), ""},
	{reason(model.ReasonMemoryBusy), CodeResourceUnavailable,
		fixed("The gateway is busy: answers in flight hold its memory; try again after details.retryAfterMs."), ""},
	{reason(model.ReasonWikiDisabled), CodeResourceUnavailable,
		fixed("The wiki is not enabled on this Dagu server (it answered 403 for wiki routes)."), ""},
	{reason(model.ReasonNoWiki), CodeResourceUnavailable,
		fixed("This Dagu server has no wiki: Dagu 2.0 to 2.6 serve it as docs and current releases as the wiki; " +
			"Dagu 1.x has neither, so upgrading Dagu is the only way to read pages through it."), ""},
	{reason(model.ReasonNoSubRuns), CodeResourceUnavailable,
		fixed("This Dagu server has neither the /sub-dag-runs routes of Dagu 1.29 and later nor the /children " +
			"routes of Dagu 1.17, so the gateway cannot read sub-runs on it."), ""},
	{reason(model.ReasonNoForeach), CodeResourceUnavailable,
		fixed("This Dagu server has neither the /foreach routes of current releases nor the step-log downloads " +
			"of Dagu 2.0 and later that a finished foreach step's summary is read from (Dagu 1.x has neither), so the " +
			"gateway cannot read foreach items on it; upgrading Dagu is the only way to read them through it."), ""},
	{reason(model.ReasonNoBodyStepLogs), CodeResourceUnavailable,
		fixed("Body-step logs of foreach items need a Dagu server with per-item foreach records " +
			"(the /foreach REST routes); this server does not offer them."), ""},
	{reason(model.ReasonNoLiveForeach), CodeResourceUnavailable,
		fixed("Live per-item progress of a running foreach step needs a Dagu server with per-item " +
			"foreach records; this server reports items only after the step finishes."), ""},
	{reason(model.ReasonNoNestedForeach), CodeResourceUnavailable,
		fixed("Items of nested foreach steps need a Dagu server with per-item foreach records " +
			"(the /foreach REST routes); this server reports only the top-level items of a finished foreach step."), ""},
	{reason(model.ReasonForeachSummary), CodeResourceUnavailable,
		fixed("The gateway could not read the foreach summary this Dagu server wrote to the " +
			"step's output, so it cannot report the step's items."), ""},
	{reason(model.ReasonLabelScanLimit), CodeResourceUnavailable, labelScanLimitText, ""},
	{reason(model.ReasonBadCursor), CodeInvalidToolInput,
		fixed("The cursor was not issued by this gateway or is damaged; repeat the list without it."), ""},
	{reason(model.ReasonRootRunLogsOnly), CodeInvalidToolInput,
		fixed("Run logs are available for root DAG-runs only; read the sub-run's step logs instead."), ""},
	{reason(model.ReasonBadStream), CodeInvalidToolInput, fixed("The stream must be stdout or stderr."), ""},
	{reason(model.ReasonNotForeachStep), CodeResourceNotFound, notForeachStepText, ""},
	{reason(model.ReasonNoStreamLog), CodeResourceNotFound, noStreamLogText, ""},
	{reason(model.ReasonNoLogOutput), CodeResourceNotFound, noLogOutputText, ""},
	// Facts of the kind and status alone.
	{status(http.StatusBadRequest), CodeInvalidToolInput, rejectedText, ""},
	{status(http.StatusUnauthorized), CodeUnauthenticated,
		fixed("Dagu did not accept the gateway's credentials; the operator must check the gateway's Dagu API key."),
		"Dagu did not accept your API key; check the key you send as Authorization: Bearer <key>."},
	{surfaceDenied, CodeUnauthorized,
		fixed("The gateway's Dagu API key lacks the rest_api surface; the operator must allow REST access for the key."),
		surfaceAdvice},
	{forbidden, CodeUnauthorized,
		fixed("The gateway's Dagu credentials are not allowed to read this resource."),
		"Your Dagu API key is not allowed to read this resource."},
	{status(http.StatusNotFound), CodeResourceNotFound, notFoundText, ""},
	{status(http.StatusRequestTimeout, http.StatusTooManyRequests, 499, // 499: Dagu's "request canceled"
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusRequestEntityTooLarge),
		CodeResourceUnavailable, unavailableHTTPText, ""},
	{kind(model.FailureTimeout), CodeResourceUnavailable,
		fixed("Dagu did not answer within the gateway's upstream timeout; try again or narrow the query."), ""},
	{kind(model.FailureTooLarge), CodeResourceUnavailable,
		fixed("Dagu's answer is larger than the gateway's response size limit; narrow the query (a smaller perPage, limit, tail or head)."), ""},
	{kind(model.FailureTLS), CodeResourceUnavailable,
		fixed("The TLS handshake with Dagu failed; the operator must check the gateway's CA settings."), ""},
	{kind(model.FailureCredentials), CodeResourceUnavailable,
		fixed("The gateway cannot read its Dagu API key file; the operator must check DAGU_API_KEY_FILE."), ""},
	{kind(model.FailureNetwork, model.FailureCanceled), CodeResourceUnavailable,
		fixed("The gateway could not reach Dagu; try again shortly."), ""},
	{kind(model.FailureUnsupported, model.FailureUnavailable), CodeResourceUnavailable,
		fixed("The read cannot be served right now; try again shortly."), ""},
	{kind(model.FailureNotFound), CodeResourceNotFound, notFoundText, ""},
	{kind(model.FailureDecode), CodeInternalError,
		fixed("Dagu's answer could not be read: it is not the JSON this route returns."), ""},
	// The gateway's transport guard refused it: Dagu never saw it.
	{kind(model.FailureInvalidInput), CodeInvalidToolInput,
		fixed("The gateway does not send this request to Dagu: a value in it cannot be sent safely."), ""},
}

// surfaceAdvice tells a passthrough caller what to do about its key.
const surfaceAdvice = "Your Dagu API key lacks the rest_api surface; create one with the rest_api surface in Dagu (any role; viewer is enough) and send it as Authorization: Bearer <key>."

// failureRowOf is the row that decides f, if any.
func failureRowOf(f *model.Failure) (failureRow, bool) {
	for _, row := range failureRows {
		if row.holds(f) {
			return row, true
		}
	}
	return failureRow{}, false
}

// codeFor is the row's code in the call's addressing mode.
func codeFor(row failureRow, c *call) Code {
	if row.code == CodeInvalidToolInput && c.mode == uriMode {
		return CodeInvalidResourceURI
	}
	return row.code
}

// messageFor is the row's message for f, read with whose key.
func messageFor(row failureRow, f *model.Failure, c *call, field string, callerKey bool) string {
	switch {
	case f.Detail != "":
		return f.Detail
	case callerKey && row.callerKeyText != "":
		return row.callerKeyText
	}
	return row.text(f, c, field)
}

func reason(r model.FailureReason) func(*model.Failure) bool {
	return func(f *model.Failure) bool { return f.Reason == r }
}

func status(statuses ...int) func(*model.Failure) bool {
	return func(f *model.Failure) bool { return f.Kind == model.FailureHTTP && slices.Contains(statuses, f.Status) }
}

func kind(kinds ...model.FailureKind) func(*model.Failure) bool {
	return func(f *model.Failure) bool { return slices.Contains(kinds, f.Kind) }
}

// forbidden is Dagu's 403 or a port's own refusal.
func forbidden(f *model.Failure) bool {
	return status(http.StatusForbidden)(f) || f.Kind == model.FailureForbidden
}

// surfaceDenied is the plain-text 403 Dagu sends for a key without the
// rest_api surface.
func surfaceDenied(f *model.Failure) bool { return forbidden(f) && f.SurfaceDenied }

func fixed(text string) func(*model.Failure, *call, string) string {
	return func(*model.Failure, *call, string) string { return text }
}

func rejectedText(_ *model.Failure, _ *call, field string) string {
	if field != "" {
		return fmt.Sprintf("Dagu rejected the value of %s.", field)
	}
	return "Dagu rejected the request's parameters."
}

func unavailableHTTPText(f *model.Failure, _ *call, _ string) string {
	return fmt.Sprintf("Dagu is temporarily unavailable (HTTP %d); try again shortly.", f.Status)
}

// arg is the failure's i-th Arg.
func arg(f *model.Failure, i int) string { return f.Args[i] }

func labelScanLimitText(f *model.Failure, _ *call, _ string) string {
	sent, limit, total := arg(f, 0), arg(f, 1), arg(f, 2)
	return fmt.Sprintf("This Dagu server filters DAGs by one label: the gateway sends the first label, %q, and "+
		"applies the others itself over at most %s DAGs, but %s DAGs carry %q, so the list would be incomplete. "+
		"Put a label fewer DAGs carry first, or narrow the list with name.", sent, limit, total, sent)
}

func notForeachStepText(f *model.Failure, _ *call, _ string) string {
	return fmt.Sprintf("Step %q is not a foreach step.", arg(f, 0))
}

// stepLabel names the step of a log read: "Step X", or "Body step B of
// item I" (Args: step name, item, body step name).
func stepLabel(f *model.Failure) string {
	if body := arg(f, 2); body != "" {
		return fmt.Sprintf("Body step %q of item %q", body, arg(f, 1))
	}
	return fmt.Sprintf("Step %q", arg(f, 0))
}

func noStreamLogText(f *model.Failure, _ *call, _ string) string {
	return fmt.Sprintf("%s has no %s log.", stepLabel(f), arg(f, 3))
}

func noLogOutputText(f *model.Failure, _ *call, _ string) string {
	return stepLabel(f) + " has no log output yet."
}

func notFoundText(_ *model.Failure, c *call, field string) string { return notFoundMessage(c, field) }

// notFoundMessage tells the agent which of its values named nothing.
func notFoundMessage(c *call, field string) string {
	in := c.in
	name, id := in.get(fName), in.get(fDAGRunID)
	switch field {
	case fName:
		if c.target == tReference {
			return fmt.Sprintf("Reference topic %q was not found.", name)
		}
		if id != "" {
			return fmt.Sprintf("DAG %q has no DAG-run %q.", name, id)
		}
		return fmt.Sprintf("DAG %q was not found.", name)
	case fDAGRunID:
		if id == model.LatestRun {
			return fmt.Sprintf("DAG %q has no DAG-runs.", name)
		}
		return fmt.Sprintf("DAG-run %q of DAG %q was not found.", id, name)
	case fSubRunID:
		return subRunNotFoundMessage(in.get(fSubRunID), id, name)
	case fStepName:
		return fmt.Sprintf("Step %q was not found in DAG-run %q of DAG %q.", in.get(fStepName), id, name)
	case fItem:
		return fmt.Sprintf("Item %q of foreach step %q was not found.", in.get(fItem), in.get(fStepName))
	case fBodyStepName:
		return fmt.Sprintf("Body step %q was not found in item %q of foreach step %q.", in.get(fBodyStepName), in.get(fItem), in.get(fStepName))
	case fPath:
		return fmt.Sprintf("Wiki page %q was not found in workspace %q.", in.get(fPath), in.get(fWorkspace))
	case fWorkspace:
		return fmt.Sprintf("Workspace %q was not found or is not visible to the gateway.", in.get(fWorkspace))
	}
	return "The requested resource was not found."
}

// subRunNotFoundMessage names a missing sub-run and the root run it was
// looked for under (its ID, never "latest": see subRunNotFound).
func subRunNotFoundMessage(subRunID, rootID, name string) string {
	return fmt.Sprintf("Sub DAG-run %q was not found under DAG-run %q of DAG %q.", subRunID, rootID, name)
}
