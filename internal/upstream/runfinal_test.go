// SPDX-License-Identifier: Apache-2.0

package upstream

import (
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

func TestFinalRun(t *testing.T) {
	t.Parallel()
	limit := func(n int) *int { return &n }
	tests := []struct {
		name string
		d    *gen.DAGRunDetails
		want bool
	}{
		{"nil", nil, false},
		{"never ran", &gen.DAGRunDetails{Status: 4}, false},
		{"not started", &gen.DAGRunDetails{DagRunId: "r", Status: 0}, false},
		{"running", &gen.DAGRunDetails{DagRunId: "r", Status: 1}, false},
		{"failed", &gen.DAGRunDetails{DagRunId: "r", Status: 2}, true},
		{"aborted", &gen.DAGRunDetails{DagRunId: "r", Status: 3}, true},
		{"succeeded", &gen.DAGRunDetails{DagRunId: "r", Status: 4}, true},
		{"queued", &gen.DAGRunDetails{DagRunId: "r", Status: 5}, false},
		{"partially succeeded", &gen.DAGRunDetails{DagRunId: "r", Status: 6}, true},
		{"waiting", &gen.DAGRunDetails{DagRunId: "r", Status: 7}, false},
		{"rejected", &gen.DAGRunDetails{DagRunId: "r", Status: 8}, true},
		{"unknown", &gen.DAGRunDetails{DagRunId: "r", Status: 9}, false},
		{"failed, automatic retry pending", &gen.DAGRunDetails{DagRunId: "r", Status: 2, AutoRetryCount: 1, AutoRetryLimit: limit(3)}, false},
		{"failed, automatic retries used up", &gen.DAGRunDetails{DagRunId: "r", Status: 2, AutoRetryCount: 3, AutoRetryLimit: limit(3)}, true},
		{"succeeded with retries configured", &gen.DAGRunDetails{DagRunId: "r", Status: 4, AutoRetryLimit: limit(3)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := finalRun(tt.d); got != tt.want {
				t.Errorf("finalRun = %v, want %v", got, tt.want)
			}
		})
	}
}
