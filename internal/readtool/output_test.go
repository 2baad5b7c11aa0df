// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFieldApplicability walks the contract's Input table: for each target,
// every field is either accepted (required or optional) or refused as
// forbidden, and each required field is refused when missing.
func TestFieldApplicability(t *testing.T) {
	t.Parallel()
	// Written from the contract's Input table, independently of `targets`.
	contract := map[string]struct{ required, optional string }{
		"references":    {"", ""},
		"reference":     {"", "name"},
		"dags":          {"", "query"},
		"dag":           {"name", ""},
		"dag_spec":      {"name", ""},
		"dag_search":    {"search", "workspace cursor limit"},
		"wiki":          {"", "workspace query prefix"},
		"wiki_page":     {"workspace path", ""},
		"wiki_search":   {"search", "workspace prefix cursor limit"},
		"workbook":      {"path", "password"},
		"runs":          {"", "query"},
		"run":           {"name dagRunId", "subRunId"},
		"run_logs":      {"name dagRunId", "query"},
		"step_log":      {"name dagRunId stepName", "subRunId query item bodyStepName"},
		"foreach_items": {"name dagRunId stepName", "subRunId query"},
		"foreach_item":  {"name dagRunId stepName item", "subRunId"},
	}
	sample := map[string]string{
		"name": `"authoring"`, "dagRunId": `"r"`, "subRunId": `"s"`, "stepName": `"x"`, "item": `"0"`,
		"bodyStepName": `"b"`, "query": `""`, "workspace": `"default"`, "path": `"/data/a.xlsx"`,
		"password": `"pw"`, "search": `"q"`, "prefix": `"runbooks"`, "cursor": `"c"`, "limit": `5`,
	}
	for target, row := range contract {
		required := strings.Fields(row.required)
		allowed := append(append([]string{}, required...), strings.Fields(row.optional)...)
		base := func(skip string) []string {
			parts := []string{fmt.Sprintf(`"target":%q`, target)}
			for _, f := range required {
				if f != skip {
					v := sample[f]
					if target == "wiki_page" && f == "path" {
						v = `"runbooks/deploy"`
					}
					parts = append(parts, fmt.Sprintf(`%q:%s`, f, v))
				}
			}
			return parts
		}
		for _, f := range required {
			t.Run(target+"/missing/"+f, func(t *testing.T) {
				t.Parallel()
				tool, _ := newStubTool(t)
				e := errorOf(t, callJSON(t, tool, "{"+strings.Join(base(f), ",")+"}"))
				checkErr(t, e, wantErr{code: CodeInvalidToolInput, field: f, target: target})
			})
		}
		for _, f := range targetModeFields[1:] {
			if contains(required, f) || f == "query" && contains(allowed, f) {
				continue
			}
			t.Run(target+"/field/"+f, func(t *testing.T) {
				t.Parallel()
				tool, _ := newStubTool(t)
				v := sample[f]
				if f == "query" {
					v = `"a=1"`
				}
				args := "{" + strings.Join(append(base(""), fmt.Sprintf(`%q:%s`, f, v)), ",") + "}"
				if f == "item" && target == "step_log" {
					args = strings.TrimSuffix(args, "}") + `,"bodyStepName":"b"}`
				}
				if f == "bodyStepName" && target == "step_log" {
					args = strings.TrimSuffix(args, "}") + `,"item":"0"}`
				}
				res := callJSON(t, tool, args)
				if !contains(allowed, f) {
					checkErr(t, errorOf(t, res), wantErr{code: CodeInvalidToolInput, field: f, target: target})
					return
				}
				if res.IsError {
					if e := res.StructuredContent.(*Error); e.Field == f || e.Code == CodeInvalidToolInput {
						t.Fatalf("allowed field refused: %+v", e)
					}
				}
			})
		}
	}
}

// TestEnvelope checks the exact top-level keys, the echo fields, the
// references list and the content items for representative targets.
func TestEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args  string
		keys  string // sorted top-level keys
		items int
	}{
		{`{"target":"references"}`, "data references target", 1},
		{`{"uri":"dagu://reference"}`, "data references target uri", 2},
		{`{"target":"reference"}`, "data references target uri", 2},
		{`{"target":"dags"}`, "data references target", 1},
		{`{"target":"dag","name":"a"}`, "data references target", 1},
		{`{"target":"dag_spec","name":"a"}`, "data references target uri", 2},
		{`{"target":"dag_search","search":"x"}`, "data references target", 1},
		{`{"target":"wiki"}`, "data references target uri", 2},
		{`{"target":"wiki","workspace":"ops","prefix":"runbooks"}`, "data prefix references target uri workspace", 2},
		{`{"target":"wiki_page","workspace":"ops","path":"a/b"}`, "data path references target uri workspace", 2},
		{`{"target":"wiki_search","search":"x"}`, "data references target", 1},
		{`{"target":"runs"}`, "data references target", 1},
		{`{"uri":"dagu://runs"}`, "data references target uri", 2},
		{`{"target":"run","name":"n","dagRunId":"r"}`, "data references target uri", 2},
		{`{"target":"run_logs","name":"n","dagRunId":"r"}`, "data references target uri", 2},
		{`{"target":"step_log","name":"n","dagRunId":"r","stepName":"s"}`, "dagRunId data name references stepName target uri", 2},
		{`{"target":"step_log","name":"n","dagRunId":"r","stepName":"s","subRunId":"c","item":"1","bodyStepName":"b"}`, "bodyStepName dagRunId data item name references stepName subRunId target uri", 2},
		{`{"uri":"dagu://runs/n/r/steps/s/foreach"}`, "dagRunId data name references stepName target uri", 2},
		{`{"target":"foreach_item","name":"n","dagRunId":"r","stepName":"s","item":"0"}`, "dagRunId data item name references stepName target uri", 2},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			res := callJSON(t, tool, tt.args)
			if res.IsError {
				t.Fatalf("refused: %+v", res.StructuredContent)
			}
			out := structured(t, res)
			keys := make([]string, 0, len(out))
			for k := range out {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if got := strings.Join(keys, " "); got != tt.keys {
				t.Fatalf("keys = %q, want %q", got, tt.keys)
			}
			refs, _ := json.Marshal(out["references"])
			if string(refs) != `["dagu://reference/authoring","dagu://reference/tools","dagu://reference/notifications"]` {
				t.Fatalf("references = %s", refs)
			}
			if len(res.Content) != tt.items {
				t.Fatalf("content items = %d, want %d", len(res.Content), tt.items)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; out["target"] != "dags" && text != successText {
				t.Fatalf("success text = %q", text)
			}
		})
	}
}

func TestDAGsSuccessTextCarriesIndentedData(t *testing.T) {
	t.Parallel()
	tool, _ := newStubTool(t)
	res := callJSON(t, tool, `{"target":"dags"}`)
	text := res.Content[0].(*mcp.TextContent).Text
	head, body, ok := strings.Cut(text, "\n\n")
	if !ok || head != successText {
		t.Fatalf("text = %q", text)
	}
	out := structured(t, res)
	want, _ := json.MarshalIndent(out["data"], "", "  ")
	var gotV, wantV any
	_ = json.Unmarshal([]byte(body), &gotV)
	_ = json.Unmarshal(want, &wantV)
	if fmt.Sprint(gotV) != fmt.Sprint(wantV) || !strings.Contains(body, "\n  \"items\": [") {
		t.Fatalf("body is not the 2-space indented data:\n%s", body)
	}
}

func TestReferenceDefaultTopicAndNotFound(t *testing.T) {
	t.Parallel()
	tool, _ := newStubTool(t)
	out := structured(t, callJSON(t, tool, `{"target":"reference"}`))
	if out["uri"] != "dagu://reference/authoring" {
		t.Fatalf("uri = %v", out["uri"])
	}
	data := out["data"].(map[string]any)
	if data["mimeType"] != "text/markdown" || data["text"] != "# authoring" {
		t.Fatalf("data = %v", data)
	}
	e := errorOf(t, callJSON(t, tool, `{"target":"reference","name":"nope"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "name", target: "reference", uri: "dagu://reference/nope"})
	e = errorOf(t, callJSON(t, tool, `{"uri":"dagu://reference/nope"}`))
	checkErr(t, e, wantErr{code: CodeResourceNotFound, field: "uri", target: "reference", uri: "dagu://reference/nope"})
	if e.Details["segment"] != "name" {
		t.Fatalf("details = %v", e.Details)
	}
}
