// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"reflect"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// wantErr describes the expected error object; empty strings mean "absent".
type wantErr struct {
	code    Code
	field   string
	target  string
	uri     string
	details []string // details.fields, when the failure names several fields
	message string   // checked only when set
}

func checkErr(t *testing.T, got *Error, want wantErr) {
	t.Helper()
	if got.Code != want.code || got.Field != want.field || got.Target != want.target || got.URI != want.uri {
		t.Fatalf("error = {code:%s field:%q target:%q uri:%q msg:%q}, want {code:%s field:%q target:%q uri:%q}",
			got.Code, got.Field, got.Target, got.URI, got.Message, want.code, want.field, want.target, want.uri)
	}
	if got.Message == "" {
		t.Fatal("error message is empty")
	}
	if want.message != "" && got.Message != want.message {
		t.Fatalf("message = %q, want %q", got.Message, want.message)
	}
	var fields []string
	if f, ok := got.Details["fields"].([]string); ok {
		fields = f
	}
	if !reflect.DeepEqual(fields, want.details) {
		t.Fatalf("details.fields = %v, want %v", fields, want.details)
	}
}

// TestInputRules covers the contract's Input section and the input rows of
// its Errors table.
func TestInputRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args string
		want wantErr
	}{
		{"array input", `[]`, wantErr{code: CodeInvalidToolInput}},
		{"string input", `"dags"`, wantErr{code: CodeInvalidToolInput}},
		{"number input", `5`, wantErr{code: CodeInvalidToolInput}},
		{"truncated object", `{"target":`, wantErr{code: CodeInvalidToolInput}},
		{"two objects", `{} {}`, wantErr{code: CodeInvalidToolInput}},
		{"empty object", `{}`, wantErr{code: CodeInvalidToolInput, message: "Either target or uri is required."}},
		{"null input", `null`, wantErr{code: CodeInvalidToolInput}},
		{"unknown field", `{"target":"dags","foo":1}`, wantErr{code: CodeInvalidToolInput, field: "foo", target: "dags"}},
		{"unknown field, unsupported target", `{"target":"queues","foo":1}`, wantErr{code: CodeInvalidToolInput, field: "foo"}},
		{"wrong type names the alias's target", `{"target":"doc","path":5}`, wantErr{code: CodeInvalidToolInput, field: "path", target: "wiki_page"}},
		{"unknown field null", `{"target":"dags","foo":null}`, wantErr{code: CodeInvalidToolInput, field: "foo", target: "dags"}},
		{"two unknown fields", `{"target":"dags","b":1,"a":2}`, wantErr{code: CodeInvalidToolInput, target: "dags", details: []string{"a", "b"}}},
		{"field names are case-sensitive", `{"Target":"dags"}`, wantErr{code: CodeInvalidToolInput, field: "Target"}},
		{"target not a string", `{"target":5}`, wantErr{code: CodeInvalidToolInput, field: "target"}},
		{"name not a string", `{"target":"dag","name":["x"]}`, wantErr{code: CodeInvalidToolInput, field: "name", target: "dag"}},
		{"limit as string", `{"target":"dag_search","search":"x","limit":"5"}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "dag_search"}},
		{"limit fraction", `{"target":"dag_search","search":"x","limit":1.5}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "dag_search"}},
		{"two wrong types", `{"target":1,"name":true}`, wantErr{code: CodeInvalidToolInput, details: []string{"name", "target"}}},
		{"whitespace target", `{"target":"   "}`, wantErr{code: CodeInvalidToolInput, field: "target"}},
		{"whitespace uri", `{"uri":"  "}`, wantErr{code: CodeInvalidToolInput}},
		{"fields without target", `{"name":"x"}`, wantErr{code: CodeInvalidToolInput, field: "target"}},
		{"unsupported target", `{"target":"Dags"}`, wantErr{code: CodeUnsupportedReadTarget, field: "target", target: "Dags"}},
		{"unsupported target trimmed", `{"target":" queues "}`, wantErr{code: CodeUnsupportedReadTarget, field: "target", target: "queues"}},
		{"mixed modes", `{"uri":"dagu://reference/authoring","target":"reference"}`, wantErr{code: CodeInvalidToolInput, field: "target", uri: "dagu://reference/authoring", details: []string{"target"}}},
		{"mixed modes several", `{"uri":"dagu://dags","target":"dags","query":"page=1"}`, wantErr{code: CodeInvalidToolInput, uri: "dagu://dags", details: []string{"target", "query"}}},
		{"uri with limit", `{"uri":"dagu://dags","limit":5}`, wantErr{code: CodeInvalidToolInput, field: "limit", uri: "dagu://dags", details: []string{"limit"}}},
		{"uri with spaces password", `{"uri":" dagu://dags ","password":"  "}`, wantErr{code: CodeInvalidToolInput, field: "password", uri: "dagu://dags", details: []string{"password"}}},
		{"required missing", `{"target":"run_logs","name":"nightly-report"}`, wantErr{code: CodeInvalidToolInput, field: "dagRunId", target: "run_logs", message: "The dagRunId field is required for target run_logs."}},
		{"required blank", `{"target":"run_logs","name":"n","dagRunId":"  "}`, wantErr{code: CodeInvalidToolInput, field: "dagRunId", target: "run_logs"}},
		{"two required missing", `{"target":"run_logs"}`, wantErr{code: CodeInvalidToolInput, target: "run_logs", details: []string{"name", "dagRunId"}}},
		{"forbidden field", `{"target":"dags","name":"x"}`, wantErr{code: CodeInvalidToolInput, field: "name", target: "dags", message: "The name field is not allowed for target dags."}},
		{"forbidden password", `{"target":"dag","name":"x","password":" "}`, wantErr{code: CodeInvalidToolInput, field: "password", target: "dag"}},
		{"forbidden fields", `{"target":"references","name":"a","cursor":"b"}`, wantErr{code: CodeInvalidToolInput, target: "references", details: []string{"name", "cursor"}}},
		{"forbidden limit", `{"target":"wiki","limit":3}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "wiki"}},
		{"limit zero", `{"target":"wiki_search","search":"x","limit":0}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "wiki_search"}},
		{"limit 51", `{"target":"dag_search","search":"x","limit":51}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "dag_search"}},
		{"limit huge", `{"target":"dag_search","search":"x","limit":1e30}`, wantErr{code: CodeInvalidToolInput, field: "limit", target: "dag_search"}},
		{"item without body step", `{"target":"step_log","name":"a","dagRunId":"b","stepName":"c","item":"0"}`, wantErr{code: CodeInvalidToolInput, field: "bodyStepName", target: "step_log"}},
		{"body step without item", `{"target":"step_log","name":"a","dagRunId":"b","stepName":"c","bodyStepName":"d"}`, wantErr{code: CodeInvalidToolInput, field: "item", target: "step_log"}},
		{"wiki page all", `{"target":"wiki_page","workspace":"all","path":"a"}`, wantErr{code: CodeInvalidToolInput, field: "workspace", target: "wiki_page"}},
		{"wiki page bad path", `{"target":"wiki_page","workspace":"default","path":"../etc"}`, wantErr{code: CodeInvalidToolInput, field: "path", target: "wiki_page"}},
		{"bad workspace", `{"target":"wiki","workspace":"a/b"}`, wantErr{code: CodeInvalidToolInput, field: "workspace", target: "wiki"}},
		{"bad prefix", `{"target":"wiki_search","search":"x","prefix":"/abs"}`, wantErr{code: CodeInvalidToolInput, field: "prefix", target: "wiki_search"}},
		{"prefix conflict", `{"target":"wiki","prefix":"a","query":"prefix=b"}`, wantErr{code: CodeInvalidToolInput, field: "prefix", target: "wiki"}},
		{"query with ?", `{"target":"dags","query":"?page=1"}`, wantErr{code: CodeInvalidToolInput, field: "query", target: "dags"}},
		{"query for target without", `{"target":"dag","name":"x","query":"page=1"}`, wantErr{code: CodeInvalidToolInput, field: "query", target: "dag"}},
		{"deprecated alias resolves", `{"target":"doc","workspace":"all","path":"a"}`, wantErr{code: CodeInvalidToolInput, field: "workspace", target: "wiki_page"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			checkErr(t, errorOf(t, callJSON(t, tool, tt.args)), tt.want)
		})
	}
}

// TestBlankAndNullFieldsAreAbsent: a forbidden field that is blank after
// trimming, or null, does not fail; a blank required field is missing.
func TestBlankAndNullFieldsAreAbsent(t *testing.T) {
	t.Parallel()
	for _, args := range []string{
		`{"target":"dags","name":"   ","stepName":null,"limit":null}`,
		`{"uri":" dagu://dags ","target":"","name":" ","password":""}`,
		`{"target":"reference","name":"  "}`,
	} {
		tool, _ := newStubTool(t)
		if res := callJSON(t, tool, args); res.IsError {
			t.Fatalf("%s refused: %+v", args, res.StructuredContent)
		}
	}
}

// TestInputNormalisation checks trimming, null-as-absent and the verbatim
// password through what the upstream receives and what the output echoes.
func TestInputNormalisation(t *testing.T) {
	t.Parallel()
	tool, up := newStubTool(t)
	res := callJSON(t, tool, `{"target":" step_log ","name":"  nightly ","dagRunId":"r1","stepName":" a b ","subRunId":null,"query":" tail=5 "}`)
	if res.IsError {
		t.Fatalf("unexpected error: %+v", res.StructuredContent)
	}
	out := structured(t, res)
	if out["name"] != "nightly" || out["stepName"] != "a b" || out["uri"] != "dagu://runs/nightly/r1/steps/a%20b/logs?tail=5" {
		t.Fatalf("echo/uri not trimmed: %v", out)
	}
	if _, ok := out["subRunId"]; ok {
		t.Fatal("null subRunId must be absent")
	}
	got := up.last().([]any)
	addr, q := got[0].(model.StepAddress), got[1].(model.LogQuery)
	if addr.Name != "nightly" || addr.StepName != "a b" || addr.SubRunID != "" || q.Tail != 5 {
		t.Fatalf("upstream got %+v %+v", addr, q)
	}
}
