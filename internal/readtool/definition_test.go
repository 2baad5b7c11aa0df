// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestDescriptionNumbersAreEnforced reads each range the description
// promises and probes the rule that enforces it: the bound is accepted and
// one past it is refused.
func TestDescriptionNumbersAreEnforced(t *testing.T) {
	t.Parallel()
	desc := Definition().Description
	tests := []struct {
		name    string
		pattern string // one capture group: the upper bound
		target  string
		param   string
	}{
		{"dags perPage", `dags \[query: page, perPage 1-(\d+)`, tDAGs, "perPage"},
		{"wiki perPage", `wiki \[.*?\]`, tWiki, "perPage"},
		{"runs limit", `limit 1-(\d+), cursor, labels\]`, tRuns, "limit"},
		{"runs status", `status=0\.\.(\d+)`, tRuns, "status"},
		{"run_logs tail", `run_logs name, dagRunId \[query: tail 1-(\d+)`, tRunLogs, "tail"},
		{"step_log tail", `tail\|head 1-(\d+)`, tStepLog, "tail"},
		{"step_log head", `tail\|head 1-(\d+)`, tStepLog, "head"},
		{"step_log limit", `offset>=1 with limit 1-(\d+)`, tStepLog, "limit"},
		{"foreach perPage", `page, perPage 1-(\d+), parent\]`, tForeachItems, "perPage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hi := maxListPerPage
			if m := regexp.MustCompile(tt.pattern).FindStringSubmatch(desc); m == nil {
				t.Fatalf("description lacks %q", tt.pattern)
			} else if len(m) > 1 {
				hi, _ = strconv.Atoi(m[1])
			}
			spec := targets[tt.target]
			if _, p := spec.reader.parse(spec.name, fmt.Sprintf("%s=%d", tt.param, hi)); p != nil {
				t.Errorf("%s=%d refused: %s", tt.param, hi, p.message)
			}
			if _, p := spec.reader.parse(spec.name, fmt.Sprintf("%s=%d", tt.param, hi+1)); p == nil {
				t.Errorf("%s=%d accepted; the description promises at most %d", tt.param, hi+1, hi)
			}
		})
	}
}

// TestDescriptionStatesTheDefaults: the default windows the upstream
// applies (model's constants) are the ones the description states.
func TestDescriptionStatesTheDefaults(t *testing.T) {
	t.Parallel()
	desc := Definition().Description
	for _, want := range []string{
		fmt.Sprintf("covers the last %d days", model.DefaultRunWindow/(24*time.Hour)),
		fmt.Sprintf("default: last %d lines, at most %d KiB", model.DefaultLogTail, model.DefaultLogBudget>>10),
		fmt.Sprintf("Default: last %d lines of both streams, at most %d KiB each", model.DefaultLogTail, model.DefaultLogBudget>>10),
		fmt.Sprintf("limit %d-%d]", minSearchLimit, maxSearchLimit),
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q", want)
		}
	}
	in := parseLimit(t, maxSearchLimit+1)
	if e := checkFieldValues(&call{target: tDAGSearch, spec: targets[tDAGSearch], in: in}, targets[tDAGSearch]); e == nil || e.Field != fLimit {
		t.Errorf("limit %d accepted", maxSearchLimit+1)
	}
}

func parseLimit(t *testing.T, n int) *input {
	t.Helper()
	in, err := parseInput([]byte(fmt.Sprintf(`{"target":"dag_search","search":"x","limit":%d}`, n)))
	if err != nil {
		t.Fatal(err.Message)
	}
	return in
}
