// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// errorObject is a tool error's structured content.
func errorObject(t *testing.T, h *harness, args string) map[string]any {
	t.Helper()
	res := h.call(t, args)
	if !res.IsError {
		t.Fatalf("%s succeeded", args)
	}
	return structuredOf(t, res)
}

// didYouMean is details.didYouMean of an error object.
func didYouMean(e map[string]any) []string {
	details, _ := e["details"].(map[string]any)
	var out []string
	for _, v := range details["didYouMean"].([]any) {
		out = append(out, v.(string))
	}
	return out
}

// TestErrorsPointAtTheFix (issue 21, rows "latest on a misspelled DAG",
// "Misspelled step" and "URI mode plus one target-mode field").
func TestErrorsPointAtTheFix(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{RecordedOnly: true})

	t.Run("a misspelled DAG is blamed on name whatever dagRunId says", func(t *testing.T) {
		for _, args := range []string{
			`{"target":"run","name":"failing_jb","dagRunId":"latest"}`,
			`{"target":"run_logs","name":"failing_jb","dagRunId":"latest"}`,
			`{"target":"step_log","name":"failing_jb","dagRunId":"latest","stepName":"explode"}`,
			`{"target":"foreach_items","name":"failing_jb","dagRunId":"latest","stepName":"explode"}`,
			`{"target":"run","name":"failing_jb","dagRunId":"0356UUn8VwcWFuh5L8qwbp"}`,
		} {
			e := errorObject(t, h, args)
			if e["code"] != "resource_not_found" || e["field"] != "name" || !slices.Contains(didYouMean(e), "failing_job") ||
				!strings.Contains(e["message"].(string), `Did you mean "failing_job"`) {
				t.Errorf("%s: %v", args, e)
			}
		}
		e := errorObject(t, h, `{"uri":"dagu://runs/failing_jb/latest"}`)
		if e["code"] != "resource_not_found" || e["field"] != "uri" || !slices.Contains(didYouMean(e), "failing_job") {
			t.Errorf("URI mode: %v", e)
		}
	})

	t.Run("a DAG that exists but never ran keeps dagRunId", func(t *testing.T) {
		e := errorObject(t, h, `{"target":"run","name":"child_job","dagRunId":"latest"}`)
		if e["code"] != "resource_not_found" || e["field"] != "dagRunId" {
			t.Errorf("child_job latest: %v", e)
		}
	})

	t.Run("a misspelled step names the resolved run and close steps", func(t *testing.T) {
		e := errorObject(t, h, `{"target":"step_log","name":"failing_job","dagRunId":"latest","stepName":"explod"}`)
		msg, _ := e["message"].(string)
		if e["field"] != "stepName" || !slices.Contains(didYouMean(e), "explode") ||
			strings.Contains(msg, `"latest"`) || !strings.Contains(msg, `DAG-run "0356UUn8VwcWFuh5L8qwbp"`) {
			t.Errorf("misspelled step: %v", e)
		}
	})

	t.Run("mixed modes carry details.fields for one field", func(t *testing.T) {
		for field, value := range map[string]string{"name": `"failing_job"`, "target": `"dags"`} {
			e := errorObject(t, h, fmt.Sprintf(`{"uri":"dagu://dags",%q:%s}`, field, value))
			details, _ := e["details"].(map[string]any)
			if fields, _ := details["fields"].([]any); len(fields) != 1 || fields[0] != field {
				t.Errorf("uri plus %s: %v", field, e)
			}
		}
	})
}
