// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestDisabledTargets: a switched-off target leaves the definition and
// answers unsupported_read_target in both modes; others are untouched.
func TestDisabledTargets(t *testing.T) {
	t.Parallel()
	tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, DisabledTargets: []string{tWorkbook, tDAGSpec}})
	if err != nil {
		t.Fatal(err)
	}
	def := definitionWithout(tool.disabled)
	enum := schemaTargetEnum(t, def)
	if contains(enum, tWorkbook) || contains(enum, tDAGSpec) || !contains(enum, tDAG) || len(enum) != len(targetOrder)-2 {
		t.Fatalf("enum %v", enum)
	}
	if strings.Contains(def.Description, "workbook") || !strings.Contains(def.Description, "- dag name") {
		t.Fatalf("description still names the disabled target:\n%s", def.Description)
	}
	for _, args := range []string{`{"target":"workbook","path":"/x.xlsx"}`, `{"uri":"dagu://dags/a/spec"}`} {
		e := errorOf(t, tool.Call(context.Background(), json.RawMessage(args)))
		if e.Code != CodeUnsupportedReadTarget {
			t.Errorf("%s: %+v", args, e)
		}
	}
	if res := tool.Call(context.Background(), json.RawMessage(`{"target":"dag","name":"a"}`)); res.IsError {
		t.Fatalf("an enabled target failed: %+v", res.StructuredContent)
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, DisabledTargets: []string{"nope"}}); err == nil {
		t.Fatal("an unknown target was accepted")
	}
}
