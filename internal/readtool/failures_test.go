// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"net/http"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestEveryFailureRowDecides: each row of the failure table is the first
// to hold for some failure, so no row is shadowed by one above it.
func TestEveryFailureRowDecides(t *testing.T) {
	t.Parallel()
	httpFailure := func(status int) *model.Failure { return &model.Failure{Kind: model.FailureHTTP, Status: status} }
	samples := []*model.Failure{}
	for _, tt := range reasonTexts {
		samples = append(samples, &tt.failure)
	}
	samples = append(samples,
		httpFailure(400), httpFailure(401), &model.Failure{Kind: model.FailureHTTP, Status: 403, SurfaceDenied: true}, httpFailure(403), httpFailure(404), httpFailure(503),
		&model.Failure{Kind: model.FailureTimeout}, &model.Failure{Kind: model.FailureTooLarge}, &model.Failure{Kind: model.FailureTLS}, &model.Failure{Kind: model.FailureCredentials},
		&model.Failure{Kind: model.FailureNetwork}, &model.Failure{Kind: model.FailureUnsupported}, &model.Failure{Kind: model.FailureNotFound}, &model.Failure{Kind: model.FailureDecode},
		&model.Failure{Kind: model.FailureInvalidInput},
	)
	decides := make([]bool, len(failureRows))
	for _, f := range samples {
		for i, row := range failureRows {
			if row.holds(f) {
				decides[i] = true
				break
			}
		}
	}
	for i, ok := range decides {
		if !ok {
			t.Errorf("row %d (%s) decides none of the samples: shadowed, or a sample is missing", i, failureRows[i].code)
		}
	}
}

// TestPassthroughBlamesTheCallersKey: Dagu's 401 and 403 for a verified
// caller's read are about the caller's own key, not the operator's.
func TestPassthroughBlamesTheCallersKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		failure *model.Failure
		want    string
	}{
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden, SurfaceDenied: true}, surfaceAdvice},
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusUnauthorized}, "Dagu did not accept your API key; check the key you send as Authorization: Bearer <key>."},
		{&model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden}, "Your Dagu API key is not allowed to read this resource."},
	} {
		tool, up, _ := passthroughTool(t)
		up.err = tt.failure
		if e := errorOf(t, callAs(tool, reqctx.TrustVerified, `{"target":"dags"}`)); e.Message != tt.want {
			t.Errorf("status %d: message %q, want %q", tt.failure.Status, e.Message, tt.want)
		}
	}
	tool, up := newStubTool(t)
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: http.StatusForbidden, SurfaceDenied: true}
	if e := errorOf(t, callJSON(t, tool, `{"target":"dags"}`)); e.Message == surfaceAdvice {
		t.Errorf("the service mode blames the caller's key: %q", e.Message)
	}
}

// reasonTexts pins the message of every reason a port names, as the
// agent reads it, with the kind the port reports it as.
var reasonTexts = []struct {
	failure model.Failure
	message string
}{
	{model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonReadEnded},
		"The read did not finish in time; try again."},
	{model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonBusy},
		"The gateway is already sending as many requests to Dagu as it allows; try again shortly."},
	{model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonMemoryShare},
		"Your reads in flight already hold your share of the gateway's memory; wait for them, or try again after details.retryAfterMs."},
	{model.Failure{Kind: model.FailureUnavailable, Reason: model.ReasonMemoryBusy},
		"The gateway is busy: answers in flight hold its memory; try again after details.retryAfterMs."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonWikiDisabled},
		"The wiki is not enabled on this Dagu server (it answered 403 for wiki routes)."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoWiki},
		"This Dagu server has no wiki: Dagu 2.0 to 2.6 serve it as docs and current releases as the wiki; Dagu 1.x has neither, so upgrading Dagu is the only way to read pages through it."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoSubRuns},
		"This Dagu server has neither the /sub-dag-runs routes of Dagu 1.29 and later nor the /children routes of Dagu 1.17, so the gateway cannot read sub-runs on it."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoForeach},
		"This Dagu server has neither the /foreach routes of current releases nor the step-log downloads of Dagu 2.0 and later that a finished foreach step's summary is read from (Dagu 1.x has neither), so the gateway cannot read foreach items on it; upgrading Dagu is the only way to read them through it."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoBodyStepLogs},
		"Body-step logs of foreach items need a Dagu server with per-item foreach records (the /foreach REST routes); this server does not offer them."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoLiveForeach},
		"Live per-item progress of a running foreach step needs a Dagu server with per-item foreach records; this server reports items only after the step finishes."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonNoNestedForeach},
		"Items of nested foreach steps need a Dagu server with per-item foreach records (the /foreach REST routes); this server reports only the top-level items of a finished foreach step."},
	{model.Failure{Kind: model.FailureUnsupported, Reason: model.ReasonForeachSummary},
		"The gateway could not read the foreach summary this Dagu server wrote to the step's output, so it cannot report the step's items."},
	{model.Failure{Kind: model.FailureUnsupported, Field: model.ParamLabels, Reason: model.ReasonLabelScanLimit, Args: model.FailureArgs{"team-a", "1000", "1200"}},
		`This Dagu server filters DAGs by one label: the gateway sends the first label, "team-a", and applies the others itself over at most 1000 DAGs, but 1200 DAGs carry "team-a", so the list would be incomplete. Put a label fewer DAGs carry first, or narrow the list with name.`},
	{model.Failure{Kind: model.FailureInvalidInput, Field: model.FieldCursor, Reason: model.ReasonBadCursor},
		"The cursor was not issued by this gateway or is damaged; repeat the list without it."},
	{model.Failure{Kind: model.FailureInvalidInput, Field: model.FieldSubRunID, Reason: model.ReasonRootRunLogsOnly},
		"Run logs are available for root DAG-runs only; read the sub-run's step logs instead."},
	{model.Failure{Kind: model.FailureInvalidInput, Field: model.ParamStream, Reason: model.ReasonBadStream},
		"The stream must be stdout or stderr."},
	{model.Failure{Kind: model.FailureNotFound, Field: model.FieldStepName, Reason: model.ReasonNotForeachStep, Args: model.FailureArgs{"after"}},
		`Step "after" is not a foreach step.`},
	{model.Failure{Kind: model.FailureNotFound, Field: model.ParamStream, Reason: model.ReasonNoStreamLog, Args: model.FailureArgs{"report", "", "", "stderr"}},
		`Step "report" has no stderr log.`},
	{model.Failure{Kind: model.FailureNotFound, Field: model.ParamStream, Reason: model.ReasonNoStreamLog, Args: model.FailureArgs{"each", "0", "work", "stderr"}},
		`Body step "work" of item "0" has no stderr log.`},
	{model.Failure{Kind: model.FailureNotFound, Field: model.FieldStepName, Reason: model.ReasonNoLogOutput, Args: model.FailureArgs{"done"}},
		`Step "done" has no log output yet.`},
	{model.Failure{Kind: model.FailureNotFound, Field: model.FieldBodyStepName, Reason: model.ReasonNoLogOutput, Args: model.FailureArgs{"each", "0", "work"}},
		`Body step "work" of item "0" has no log output yet.`},
}

// TestReasonsAreWordedHere: every reason a port names gets its message
// from the one table, with the code the port's kind alone would give.
func TestReasonsAreWordedHere(t *testing.T) {
	t.Parallel()
	c, e := resolve(&input{values: map[string]string{fTarget: tDAGs}})
	if e != nil {
		t.Fatal(e)
	}
	for _, tt := range reasonTexts {
		row, ok := failureRowOf(&tt.failure)
		if !ok {
			t.Fatalf("%s: no row", tt.failure.Reason)
		}
		if got := messageFor(row, &tt.failure, c, tt.failure.Field, false); got != tt.message {
			t.Errorf("%s:\n got %s\nwant %s", tt.failure.Reason, got, tt.message)
		}
		bare := tt.failure
		bare.Reason, bare.Args = "", model.FailureArgs{}
		kindRow, ok := failureRowOf(&bare)
		if !ok || kindRow.code != row.code {
			t.Errorf("%s: code %s, but its kind %s gives %s", tt.failure.Reason, row.code, tt.failure.Kind, kindRow.code)
		}
	}
}
