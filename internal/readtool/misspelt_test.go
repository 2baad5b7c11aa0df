// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestMisspeltTargetsAndParameters: a target or query parameter that is
// not one the contract knows gets the close ones as a did-you-mean (in the
// message and details.didYouMean), or the list of valid ones when none is
// close, as DAG names do.
func TestMisspeltTargetsAndParameters(t *testing.T) {
	t.Parallel()
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args, code string
		didYouMean []string
		message    []string
	}{
		{args: `{"target":"dagz"}`, code: "unsupported_read_target", didYouMean: []string{"dag", "dags"},
			message: []string{`Unsupported read target "dagz". Did you mean "dag", "dags"?`}},
		{args: `{"target":"step-log","name":"a"}`, code: "unsupported_read_target", didYouMean: []string{"step_log"}},
		{args: `{"target":"queues"}`, code: "unsupported_read_target",
			message: []string{"The targets are " + strings.Join(TargetNames(), ", ") + "."}},
		{args: `{"target":"runs","query":"statuz=2"}`, code: "invalid_tool_input", didYouMean: []string{"status"},
			message: []string{`Unsupported query parameter "statuz" for target runs. Did you mean "status"?`}},
		{args: `{"uri":"dagu://runs?statuz=2"}`, code: "invalid_resource_uri", didYouMean: []string{"status"}},
		{args: `{"target":"runs","query":"colour=red"}`, code: "invalid_tool_input",
			message: []string{`Unsupported query parameter "colour" for target runs. It takes name, dagRunId, status,`}},
	} {
		res := tool.Call(context.Background(), json.RawMessage(tc.args))
		raw, _ := json.Marshal(res.StructuredContent)
		var e struct {
			Code    string
			Message string
			Details struct{ DidYouMean []string }
		}
		if err := json.Unmarshal(raw, &e); err != nil || !res.IsError {
			t.Fatalf("%s: %s %v", tc.args, raw, err)
		}
		if e.Code != tc.code || !slices.Equal(e.Details.DidYouMean, tc.didYouMean) {
			t.Errorf("%s: code %s, didYouMean %q; want %s, %q", tc.args, e.Code, e.Details.DidYouMean, tc.code, tc.didYouMean)
		}
		for _, want := range tc.message {
			if !strings.Contains(e.Message, want) {
				t.Errorf("%s: message %q lacks %q", tc.args, e.Message, want)
			}
		}
	}
}

// TestMisspeltTargetOnAGatewayWithDisabledTargets: a target the operator
// switched off is never suggested nor listed.
func TestMisspeltTargetOnAGatewayWithDisabledTargets(t *testing.T) {
	t.Parallel()
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, DisabledTargets: []string{"dags", "workbook"}})
	if err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"target":"dagz"}`:   `Unsupported read target "dagz". Did you mean "dag"?`,
		`{"target":"queues"}`: "The targets are references, reference, dag, dag_spec, dag_search, wiki, wiki_page, wiki_search, runs,",
	} {
		res := tool.Call(context.Background(), json.RawMessage(args))
		e, ok := res.StructuredContent.(*Error)
		if !ok {
			t.Fatalf("%s: %+v", args, res.StructuredContent)
		}
		raw, _ := json.Marshal(e)
		if !strings.Contains(e.Message, want) || strings.Contains(string(raw), "workbook") || strings.Contains(string(raw), `"dags"`) {
			t.Errorf("%s: %s, want %q and no disabled target", args, raw, want)
		}
	}
}
