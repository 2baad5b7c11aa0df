package readtool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// TestUpstreamErrorTable checks the one status/kind table in both modes,
// the decoration with target and uri, and that Dagu's text never leaks.
func TestUpstreamErrorTable(t *testing.T) {
	const secret = "/var/lib/dagu/logs/secret-path"
	httpErr := func(status int) error {
		return &restclient.Error{Route: "/dag-runs/{name}/{dagRunId}", Kind: restclient.KindHTTP, Status: status, Message: secret}
	}
	kindErr := func(k restclient.Kind) error {
		return &restclient.Error{Route: "/dag-runs/{name}/{dagRunId}", Kind: k, Message: secret}
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
		{"403 surface", &restclient.Error{Kind: restclient.KindHTTP, Status: 403, SurfaceDenied: true}, CodeUnauthorized, "", ""},
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
		{"timeout", kindErr(restclient.KindTimeout), CodeResourceUnavailable, "", ""},
		{"network", kindErr(restclient.KindNetwork), CodeResourceUnavailable, "", ""},
		{"tls", kindErr(restclient.KindTLS), CodeResourceUnavailable, "", ""},
		{"too large", kindErr(restclient.KindTooLarge), CodeResourceUnavailable, "", ""},
		{"decode", kindErr(restclient.KindDecode), CodeInternalError, "", ""},
		{"credentials", kindErr(restclient.KindCredentials), CodeResourceUnavailable, "", ""},
		{"refused", kindErr(restclient.KindRefused), CodeInvalidToolInput, CodeInvalidResourceURI, ""},
		{"unsupported", &restclient.Error{Kind: restclient.KindUnsupported, Detail: "needs a newer Dagu"}, CodeResourceUnavailable, "", ""},
		{"adapter not found", &restclient.Error{Kind: restclient.KindNotFound, Field: "subRunId"}, CodeResourceNotFound, "", "subRunId"},
		{"field tagged 404", restclient.WithField(httpErr(404), "subRunId"), CodeResourceNotFound, "", "subRunId"},
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
				tool, up := newStubTool(t)
				up.err = tt.err
				e := errorOf(t, callJSON(t, tool, m.args))
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
			})
		}
	}
}

// TestCollectionErrorsOmitURIInTargetMode: only singular resources carry
// their URI on lookup failures in target mode.
func TestCollectionErrorsOmitURIInTargetMode(t *testing.T) {
	tool, up := newStubTool(t)
	up.err = &restclient.Error{Kind: restclient.KindHTTP, Status: 503}
	e := errorOf(t, callJSON(t, tool, `{"target":"dags"}`))
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tDAGs})
	e = errorOf(t, callJSON(t, tool, `{"uri":"dagu://dags?page=2"}`))
	if e.Field != "" {
		t.Fatalf("an unavailable upstream is not the uri's fault: field %q", e.Field)
	}
	checkErr(t, e, wantErr{code: CodeResourceUnavailable, target: tDAGs, uri: "dagu://dags?page=2"})
}

func TestDAGNotFoundSuggestsNames(t *testing.T) {
	tool, up := newStubTool(t)
	up.names = []string{"failing_job", "mcp_read_contract", "mcp.read-contract", "parent_job"}
	up.err = &restclient.Error{Kind: restclient.KindHTTP, Status: 404}
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
