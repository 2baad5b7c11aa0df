// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// goldenCase is one tool call whose whole result is pinned in a golden file.
type goldenCase struct {
	name string
	args string
	// calls, when non-negative, is the number of REST calls the read may make.
	calls int
}

func runGoldenCases(t *testing.T, opts fakedagu.Options, cases []goldenCase) {
	t.Helper()
	h := newHarness(t, opts)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h.fake.Reset()
			res := h.call(t, tc.args)
			golden(t, tc.name, tc.args, res)
			if raw, _ := json.Marshal(res); bytes.Contains(raw, []byte("/var/lib/dagu")) {
				t.Fatalf("a server filesystem path reached the agent: %s", raw)
			}
			if calls := h.restCalls(); tc.calls >= 0 && len(calls) != tc.calls {
				t.Fatalf("made %d REST calls, want %d: %v", len(calls), tc.calls, calls)
			}
			h.checkAllowListed(t)
		})
	}
}

// TestReferenceAndDAGTargets pins the foundation targets end to end in both
// addressing modes, through a real MCP client.
func TestReferenceAndDAGTargets(t *testing.T) {
	t.Parallel()
	runGoldenCases(t, fakedagu.Options{RecordedOnly: true}, []goldenCase{
		{"references", `{"target":"references"}`, 0},
		{"references-uri", `{"uri":"dagu://reference"}`, 0},
		{"reference-default", `{"target":"reference"}`, 0},
		{"reference-missing", `{"target":"reference","name":"nope"}`, 0},
		{"dags", `{"target":"dags"}`, 1},
		{"dags-paged", `{"target":"dags","query":"page=2&perPage=3"}`, 1},
		{"dags-filtered-uri", `{"uri":"dagu://dags?name=job&labels=team-a&sort=name&order=desc"}`, 1},
		{"dags-bad-query", `{"target":"dags","query":"perPage=500"}`, 0},
		{"dag", `{"target":"dag","name":"mcp_read_contract"}`, 1},
		{"dag-never-ran", `{"target":"dag","name":"child_job"}`, 1},
		{"dag-suspended", `{"target":"dag","name":"suspended_job"}`, 1},
		{"dag-dotted", `{"target":"dag","name":"mcp.read-contract"}`, 1},
		{"dag-missing", `{"target":"dag","name":"failing-job"}`, -1},
		{"dag-impossible-name", `{"target":"dag","name":"bad name"}`, -1},
		{"dag-spec", `{"target":"dag_spec","name":"failing_job"}`, 1},
		{"dag-spec-uri", `{"uri":"dagu://dags/mcp_read_contract/spec"}`, 1},
		{"dag-spec-missing-uri", `{"uri":"dagu://dags/no_such_dag/spec"}`, -1},
		{"dag-search", `{"target":"dag_search","search":"echo","limit":2}`, 1},
		{"dag-search-missing-field", `{"target":"dag_search"}`, 0},
		{"mixed-modes", `{"uri":"dagu://reference/authoring","target":"reference"}`, 0},
		{"unsupported-target", `{"target":"queues"}`, 0},
		{"unsupported-family", `{"uri":"dagu://queues/default"}`, 0},
	})
}

// TestDAGLabelsOver1xScanLimit: on 1.x, which filters DAGs by one label,
// several labels are answered only while the first one's DAGs fit the
// gateway's scan bound (2,000); past it the answer is an explicit
// resource_unavailable on the query's labels, never a silent part list.
func TestDAGLabelsOver1xScanLimit(t *testing.T) {
	t.Parallel()
	listed := make([]fakedagu.ListedDAG, 2001)
	for i := range listed {
		listed[i] = fakedagu.ListedDAG{Name: fmt.Sprintf("bulk_%04d", i), Labels: []string{"wide"}}
		if i%100 == 0 {
			listed[i].Labels = append(listed[i].Labels, "rare")
		}
	}
	h := newHarness(t, fakedagu.Options{Profile: fakedagu.Profile129, ListedDAGs: listed})
	res := h.call(t, `{"target":"dags","query":"labels=wide,rare"}`)
	var e struct {
		Code, Message, Field string
		Details              map[string]any
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &e); err != nil || !res.IsError {
		t.Fatalf("want an error, got %s", raw)
	}
	if e.Code != "resource_unavailable" || e.Field != "query" || e.Details["parameter"] != "labels" ||
		!strings.Contains(e.Message, `2001 DAGs carry "wide"`) {
		t.Errorf("%s", raw)
	}
	// The rarer label first: 21 DAGs carry it, all of them read.
	data := dataOf(t, h.call(t, `{"target":"dags","query":"labels=rare,wide"}`))
	if got := data["pagination"].(map[string]any)["totalRecords"]; got != float64(21) {
		t.Errorf("totalRecords %v, want 21", got)
	}
}
