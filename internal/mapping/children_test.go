// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"reflect"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// A parent run names its sub-runs in nodes[].subRuns (1.29 and later) or
// nodes[].children (1.17); both map to the same links under the root run.
func TestSubRunLinksOfEveryRelease(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profile fakedagu.Profile
		file    string // the recorded parent_job run
		rootID  string
		subID   string
	}{
		{fakedagu.Profile129, "048-dag-runs-parent-job-01a233ce-5a75-7538-b246-c88e6a8a1f75.json",
			"01a233ce-5a75-7538-b246-c88e6a8a1f75", "7pVtb2cbsb6D63TeGNqjUiDEVSAmYLPZ5M1ouTRDFGG"},
		{fakedagu.Profile117, "048-dag-runs-parent-job-01a233ce-e7be-7c42-900f-766080039ee9.json",
			"01a233ce-e7be-7c42-900f-766080039ee9", "JAQe48QK738cpsBePzgDMNzaQj4WjS8yRiTm6wWK4brQ"},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String(), func(t *testing.T) {
			t.Parallel()
			recs, err := fakedagu.RecordingsOf(tt.profile)
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := recs[tt.file]
			if !ok {
				t.Fatalf("no recording %s", tt.file)
			}
			d := decodeJSON[gen.DAGRunDetailsResponse](t, rec.Response.JSON).DagRunDetails
			out := RunDetail(&d, RunAddressForURIs{RootName: "parent_job", RootID: tt.rootID})
			var got []model.SubRunLink
			for _, s := range out.Steps {
				if s.Name == "run_child" {
					got = s.SubRuns
				}
			}
			want := []model.SubRunLink{{SubRunID: tt.subID, URI: "dagu://runs/parent_job/" + tt.rootID + "/sub/" + tt.subID}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("run_child's sub-runs = %+v, want %+v", got, want)
			}
			for _, s := range out.Steps {
				if s.Name != "run_child" && len(s.SubRuns) != 0 {
					t.Errorf("step %s lists sub-runs %+v", s.Name, s.SubRuns)
				}
			}
		})
	}
}

// A repeated sub-run of 1.17 (childrenRepeated) is marked like subRunsRepeated.
func TestRepeatedChildrenAreMarked(t *testing.T) {
	t.Parallel()
	n := gen.Node{Step: gen.Step{Name: "loop"},
		Children:         []gen.SubDAGRun{{DagRunId: "a"}},
		ChildrenRepeated: []gen.SubDAGRun{{DagRunId: "b"}}}
	got := subRunLinks(&n, RunAddressForURIs{RootName: "p", RootID: "r"})
	want := []model.SubRunLink{
		{SubRunID: "a", URI: model.RunURI("p", "r", "a")},
		{SubRunID: "b", URI: model.RunURI("p", "r", "b"), Repeated: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links = %+v, want %+v", got, want)
	}
}
