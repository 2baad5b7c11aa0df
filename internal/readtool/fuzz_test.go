// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

var contractCodes = map[Code]bool{
	CodeUnauthenticated: true, CodeUnauthorized: true, CodeInvalidToolInput: true,
	CodeUnsupportedReadTarget: true, CodeInvalidResourceURI: true, CodeUnsupportedResource: true,
	CodeResourceNotFound: true, CodeResourceUnavailable: true, CodeInternalError: true,
}

// FuzzCall feeds arbitrary tool arguments through input parsing, mode
// resolution, query validation and the envelope: a call never panics,
// answers either a success with the exact envelope keys or an error with a
// contract code and a message, and never an internal error for bad input.
func FuzzCall(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `null`, `{"target":"dags","query":"page=2"}`, `{"uri":"dagu://runs/n/r/steps/s/logs?tail=5"}`,
		`{"target":"step_log","name":"a","dagRunId":"b","stepName":"c","item":"0","bodyStepName":"d","query":"offset=3&limit=2"}`,
		`{"target":"wiki","prefix":"a b","query":"prefix=a%20b&flat=true"}`, `{"target":"dag_search","search":"x","limit":1.0}`,
		`{"target":" doc_search ","search":"x","workspace":"ops"}`, `{"uri":"dagu://wiki/ops/a%2Fb","name":null}`,
		`{"target":"reference","name":"read-tool"}`, `{"target":"runs","query":"status=2&status=3&fromDate=0"}`,
	} {
		f.Add(seed)
	}
	tool, _ := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}})
	f.Fuzz(func(t *testing.T, args string) {
		res := tool.Call(t.Context(), json.RawMessage(args))
		if res.IsError {
			e, ok := res.StructuredContent.(*Error)
			if !ok || !contractCodes[e.Code] || e.Message == "" {
				t.Fatalf("bad error for %s: %#v", args, res.StructuredContent)
			}
			if e.Code == CodeInternalError {
				t.Fatalf("internal error for input %s: %s", args, e.Message)
			}
			return
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var env map[string]json.RawMessage
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatalf("success is not an object: %s", raw)
		}
		for _, k := range []string{"target", "data", "references"} {
			if _, ok := env[k]; !ok {
				t.Fatalf("success without %s: %s", k, raw)
			}
		}
		_, hasURI := env["uri"]
		if want := map[bool]int{true: 2, false: 1}[hasURI]; len(res.Content) != want {
			t.Fatalf("%d content items with uri=%v", len(res.Content), hasURI)
		}
	})
}

// FuzzParseQuery checks query validation never panics and that accepted
// step_log windows respect the combination rules.
func FuzzParseQuery(f *testing.F) {
	for _, seed := range []string{"tail=5", "offset=3&limit=2", "head=1&tail=1", "a=%zz", "stream=stderr&limit=9", ";", "tail=+7"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, spec := range targets {
			target := spec.name
			parsed, p := spec.reader.parse(target, raw)
			if p != nil {
				if p.message == "" {
					t.Fatal("problem without message")
				}
				continue
			}
			if target != tStepLog {
				continue
			}
			q := parsed.(model.LogQuery)
			windows := 0
			for _, n := range []int{q.Tail, q.Head, q.Offset} {
				if n != 0 {
					windows++
				}
			}
			if windows > 1 || (q.Limit != 0 && windows == 1 && q.Offset == 0) {
				t.Fatalf("accepted an invalid window: %q", raw)
			}
		}
	})
}
