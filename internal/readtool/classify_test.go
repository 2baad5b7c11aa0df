// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestUpstreamErrorTable checks the one status/kind table in both modes,
// the decoration with target and uri, and that Dagu's text never leaks.
func TestUpstreamErrorTable(t *testing.T) {
	t.Parallel()
	const secret = "/var/lib/dagu/logs/secret-path"
	httpErr := func(status int) error {
		return &model.Failure{Kind: model.FailureHTTP, Status: status, Cause: errors.New(secret)}
	}
	kindErr := func(k model.FailureKind) error {
		return &model.Failure{Kind: k, Cause: errors.New(secret)}
	}
	tests := []struct {
		name      string
		err       error
		code      Code
		uriCode   Code // when URI mode differs
		wantField string
	}{
		{"401", httpErr(401), CodeUnauthenticated, "", ""},
		{"403", httpErr(403), CodeUnauthorized, "", ""},
		{"403 surface", &model.Failure{Kind: model.FailureHTTP, Status: 403, SurfaceDenied: true}, CodeUnauthorized, "", ""},
		{"404", httpErr(404), CodeResourceNotFound, "", "dagRunId"},
		{"400", httpErr(400), CodeInvalidToolInput, CodeInvalidResourceURI, ""},
		{"408", httpErr(408), CodeResourceUnavailable, "", ""},
		{"429", httpErr(429), CodeResourceUnavailable, "", ""},
		{"499", httpErr(499), CodeResourceUnavailable, "", ""},
		{"500", httpErr(500), CodeInternalError, "", ""},
		{"501", httpErr(501), CodeInternalError, "", ""},
		{"502", httpErr(502), CodeResourceUnavailable, "", ""},
		{"503", httpErr(503), CodeResourceUnavailable, "", ""},
		{"504", httpErr(504), CodeResourceUnavailable, "", ""},
		{"timeout", kindErr(model.FailureTimeout), CodeResourceUnavailable, "", ""},
		{"network", kindErr(model.FailureNetwork), CodeResourceUnavailable, "", ""},
		{"tls", kindErr(model.FailureTLS), CodeResourceUnavailable, "", ""},
		{"too large", kindErr(model.FailureTooLarge), CodeResourceUnavailable, "", ""},
		{"decode", kindErr(model.FailureDecode), CodeInternalError, "", ""},
		{"credentials", kindErr(model.FailureCredentials), CodeResourceUnavailable, "", ""},
		{"refused", kindErr(model.FailureInvalidInput), CodeInvalidToolInput, CodeInvalidResourceURI, ""},
		{"unsupported", &model.Failure{Kind: model.FailureUnsupported, Detail: "needs a newer Dagu"}, CodeResourceUnavailable, "", ""},
		{"unavailable", &model.Failure{Kind: model.FailureUnavailable, Detail: "too many reads"}, CodeResourceUnavailable, "", ""},
		{"forbidden", &model.Failure{Kind: model.FailureForbidden, Detail: "not allowed"}, CodeUnauthorized, "", ""},
		{"busy", &model.Failure{Kind: model.FailureUnavailable, Detail: "busy", RetryAfter: 500 * time.Millisecond}, CodeResourceUnavailable, "", ""},
		{"adapter not found", &model.Failure{Kind: model.FailureNotFound, Field: "subRunId"}, CodeResourceNotFound, "", "subRunId"},
		{"field tagged 404", &model.Failure{Kind: model.FailureHTTP, Status: 404, Field: "subRunId"}, CodeResourceNotFound, "", "subRunId"},
		{"wrapped", fmt.Errorf("ctx: %w", httpErr(503)), CodeResourceUnavailable, "", ""},
		{"deadline", context.DeadlineExceeded, CodeResourceUnavailable, "", ""},
		{"plain error", errors.New(secret), CodeInternalError, "", ""},
	}
	for _, tt := range tests {
		for _, m := range []struct {
			name, args, uri string
			mode            mode
		}{
			{"target", `{"target":"run","name":"n","dagRunId":"r"}`, "dagu://runs/n/r", targetMode},
			{"uri", `{"uri":"dagu://runs/n/r"}`, "dagu://runs/n/r", uriMode},
		} {
			t.Run(tt.name+"/"+m.name, func(t *testing.T) {
				t.Parallel()
				tool, up := newStubTool(t)
				up.err, up.names = tt.err, []string{"n"} // the DAG exists: the run is what is missing
				res := callJSON(t, tool, m.args)
				e := errorOf(t, res)
				want := tt.code
				if m.mode == uriMode && tt.uriCode != "" {
					want = tt.uriCode
				}
				field := tt.wantField
				if m.mode == uriMode {
					field = ""
					if want == CodeInvalidResourceURI || want == CodeResourceNotFound {
						field = fURI
					}
				}
				checkErr(t, e, wantErr{code: want, field: field, target: tRun, uri: m.uri})
				if strings.Contains(e.Message, secret) {
					t.Fatalf("message leaks upstream text: %q", e.Message)
				}
				if raw, err := json.Marshal(res); err != nil || strings.Contains(string(raw), secret) {
					t.Fatalf("result leaks upstream text (or does not encode: %v): %s", err, raw)
				}
			})
		}
	}
}

// TestCollectionErrorsOmitURIInTargetMode: only singular resources carry
// their URI on lookup failures in target mode.
func TestCollectionErrorsOmitURIInTargetMode(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: 503}
	e := errorOf(t, callJSON(t, tool, `{"target":"dags"}`))
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tDAGs})
	e = errorOf(t, callJSON(t, tool, `{"uri":"dagu://dags?page=2"}`))
	if e.Field != "" {
		t.Fatalf("an unavailable upstream is not the uri's fault: field %q", e.Field)
	}
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tDAGs, uri: "dagu://dags?page=2"})
}

func TestDAGNotFoundSuggestsNames(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	up.names = []string{"failing_job", "mcp_read_contract", "mcp.read-contract", "parent_job"}
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: 404}
	e := errorOf(t, callJSON(t, tool, `{"target":"dag","name":"failing-job"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "name", target: tDAG})
	if got := fmt.Sprint(e.Details["didYouMean"]); got != "[failing_job]" {
		t.Fatalf("didYouMean = %s", got)
	}
	e = errorOf(t, callJSON(t, tool, `{"target":"dag_spec","name":"mcp_read"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "name", target: tDAGSpec, uri: "dagu://dags/mcp_read/spec"})
	if got := fmt.Sprint(e.Details["didYouMean"]); got != "[mcp.read-contract mcp_read_contract]" {
		t.Fatalf("didYouMean = %s", got)
	}
	up.err = nil
	before := len(up.calls)
	e = errorOf(t, callJSON(t, tool, `{"target":"dag","name":"bad name"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "name", target: tDAG})
	if len(up.calls) != before {
		t.Fatal("an impossible DAG name reached the upstream")
	}
}

// TestRetryAfterReachesDetails: a read refused by one of the gateway's own
// limits tells the agent how long to wait.
func TestRetryAfterReachesDetails(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	up.err = &model.Failure{Kind: model.FailureUnavailable, Detail: "busy", RetryAfter: 1500 * time.Millisecond}
	e := errorOf(t, callJSON(t, tool, `{"target":"dags"}`))
	if e.Code != CodeResourceUnavailable || e.Details["retryAfterMs"] != int64(1500) {
		t.Fatalf("error %+v", e)
	}
}

// TestClassifyKeepsOwnCause: an error a reader built itself (the DAG
// not-found error with its suggestions) keeps the upstream failure it was
// built from as its logged cause; classifying it must neither replace that
// cause nor make the error its own cause.
func TestClassifyKeepsOwnCause(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	upstream := errors.New("dagu /dags/{fileName}: HTTP 404 not_found")
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: 404, Cause: upstream}
	e := errorOf(t, callJSON(t, tool, `{"target":"dag","name":"missing"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "name", target: tDAG})
	if cause := errors.Unwrap(e); cause == nil || cause == error(e) {
		t.Fatalf("logged cause = %v, want the upstream failure", cause)
	}
	if !errors.Is(e, upstream) || !strings.Contains(causeText(e), "HTTP 404") {
		t.Fatalf("logged cause %q lost the upstream failure", causeText(e))
	}
}

// TestGuardRefusalIsNotBlamedOnDagu: a request the transport guard refused
// never reached Dagu, so the message must not say Dagu rejected it.
func TestGuardRefusalIsNotBlamedOnDagu(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	up.err = &model.Failure{Kind: model.FailureInvalidInput, Cause: errors.New("transport guard: the path is not an allowed route")}
	for _, args := range []string{`{"target":"run","name":"n","dagRunId":"r"}`, `{"uri":"dagu://runs/n/r"}`} {
		e := errorOf(t, callJSON(t, tool, args))
		if strings.Contains(e.Message, "Dagu rejected") || strings.Contains(e.Message, "transport guard") {
			t.Fatalf("%s: message %q", args, e.Message)
		}
	}
	up.err = &model.Failure{Kind: model.FailureHTTP, Status: 400}
	if e := errorOf(t, callJSON(t, tool, `{"target":"run","name":"n","dagRunId":"r"}`)); !strings.Contains(e.Message, "Dagu rejected") {
		t.Fatalf("a 400 from Dagu: message %q", e.Message)
	}
}

// TestTargetModeErrorURI pins the contract's rule for `uri` on a target-mode
// failure: present (the canonical URI) once the call resolved a singular
// resource URI, absent for collections and for reads without a URI.
func TestTargetModeErrorURI(t *testing.T) {
	t.Parallel()
	run := `"name":"n","dagRunId":"r"`
	tests := []struct{ args, uri string }{
		{`{"target":"dags"}`, ""},
		{`{"target":"runs"}`, ""},
		{`{"target":"wiki","workspace":"ops"}`, ""},
		{`{"target":"dag","name":"n"}`, ""},
		{`{"target":"dag_search","search":"x"}`, ""},
		{`{"target":"wiki_search","search":"x"}`, ""},
		{`{"target":"dag_spec","name":"n"}`, "dagu://dags/n/spec"},
		{`{"target":"wiki_page","workspace":"ops","path":"a/b"}`, "dagu://wiki/ops/a%2Fb"},
		{`{"target":"run",` + run + `}`, "dagu://runs/n/r"},
		{`{"target":"run",` + run + `,"subRunId":"s"}`, "dagu://runs/n/r/sub/s"},
		{`{"target":"run_logs",` + run + `}`, "dagu://runs/n/r/logs"},
		{`{"target":"step_log",` + run + `,"stepName":"a b"}`, "dagu://runs/n/r/steps/a%20b/logs"},
		{`{"target":"step_log",` + run + `,"stepName":"s","item":"0","bodyStepName":"b"}`, "dagu://runs/n/r/steps/s/foreach/0/steps/b/logs"},
		{`{"target":"foreach_items",` + run + `,"stepName":"s"}`, "dagu://runs/n/r/steps/s/foreach"},
		{`{"target":"foreach_item",` + run + `,"stepName":"s","item":"0","subRunId":"c"}`, "dagu://runs/n/r/sub/c/steps/s/foreach/0"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			t.Parallel()
			tool, up := newStubTool(t)
			up.err = &model.Failure{Kind: model.FailureHTTP, Status: 503}
			e := errorOf(t, callJSON(t, tool, tt.args))
			if e.Code != CodeResourceUnavailable || e.URI != tt.uri {
				t.Fatalf("error %+v, want resource_unavailable with uri %q", e, tt.uri)
			}
		})
	}
}
