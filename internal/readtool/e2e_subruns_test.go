// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// subRunCase is one sub-run read; args is built from the profile's root
// run ID and sub-run ID (the recorded parent_job run and its child_job).
type subRunCase struct {
	name string
	args func(root, sub string) string
	code string // "" for success
	// sameAsNewer: the answer equals 1.29's once IDs and times are
	// blanked (a run_logs answer carries the release's own scheduler log
	// format, so it is pinned by its golden only).
	sameAsNewer bool
}

var subRunCases = []subRunCase{
	{"sub-parent-run", func(root, _ string) string { return `{"target":"run","name":"parent_job","dagRunId":"` + root + `"}` }, "", true},
	{"sub-run", func(root, sub string) string {
		return `{"target":"run","name":"parent_job","dagRunId":"` + root + `","subRunId":"` + sub + `"}`
	}, "", true},
	{"sub-run-latest-root", func(_, sub string) string {
		return `{"target":"run","name":"parent_job","dagRunId":"latest","subRunId":"` + sub + `"}`
	}, "", true},
	{"sub-run-uri", func(root, sub string) string { return `{"uri":"dagu://runs/parent_job/` + root + `/sub/` + sub + `"}` }, "", true},
	{"sub-run-missing", func(root, _ string) string {
		return `{"target":"run","name":"parent_job","dagRunId":"` + root + `","subRunId":"no_such_sub"}`
	}, "resource_not_found", true},
	{"sub-run-missing-latest-root", func(_, _ string) string {
		return `{"target":"run","name":"parent_job","dagRunId":"latest","subRunId":"no_such_sub"}`
	}, "resource_not_found", true},
	{"sub-step-log", func(root, sub string) string {
		return `{"target":"step_log","name":"parent_job","dagRunId":"` + root + `","subRunId":"` + sub + `","stepName":"child_start"}`
	}, "", true},
	{"sub-step-log-uri", func(root, sub string) string {
		return `{"uri":"dagu://runs/parent_job/` + root + `/sub/` + sub + `/steps/child_finish/logs?stream=stdout"}`
	}, "", true},
	{"sub-step-log-latest-root-stderr", func(_, sub string) string {
		return `{"target":"step_log","name":"parent_job","dagRunId":"latest","subRunId":"` + sub + `","stepName":"child_start","query":"stream=stderr"}`
	}, "", true},
	{"sub-step-log-missing-step", func(root, sub string) string {
		return `{"target":"step_log","name":"parent_job","dagRunId":"` + root + `","subRunId":"` + sub + `","stepName":"no_such_step"}`
	}, "resource_not_found", true},
	{"sub-step-log-missing-sub-run", func(root, _ string) string {
		return `{"target":"step_log","name":"parent_job","dagRunId":"` + root + `","subRunId":"no_such_sub","stepName":"child_start"}`
	}, "resource_not_found", true},
	{"sub-parent-run-logs", func(root, _ string) string {
		return `{"target":"run_logs","name":"parent_job","dagRunId":"` + root + `"}`
	}, "", false},
	{"sub-run-logs-of-a-sub-run", func(root, sub string) string {
		return `{"target":"run_logs","name":"parent_job","dagRunId":"` + root + `","subRunId":"` + sub + `"}`
	}, "invalid_tool_input", true},
}

// TestSubRunReadsOn117 reads sub-runs on Dagu 1.17 (its /children routes)
// and on 1.29 (/sub-dag-runs): every answer is pinned per release, has the
// expected code, and on 1.17 equals 1.29's answer apart from the IDs and
// times of the two recordings.
func TestSubRunReadsOn117(t *testing.T) {
	t.Parallel()
	answers := map[fakedagu.Profile]map[string]string{}
	for _, p := range []fakedagu.Profile{fakedagu.Profile129, fakedagu.Profile117} {
		h := newHarness(t, fakedagu.Options{Profile: p, RecordedOnly: true})
		root, sub := recordedSubRun(t, h)
		answers[p] = map[string]string{}
		for _, tc := range subRunCases {
			t.Run(string(p)+"/"+tc.name, func(t *testing.T) {
				h.fake.Reset()
				args := tc.args(root, sub)
				res := h.call(t, args)
				golden(t, filepath.Join("profiles", string(p), tc.name), args, res)
				if got := errorCode(t, res.IsError, res.StructuredContent); got != tc.code {
					t.Errorf("code %q, want %q", got, tc.code)
				}
				h.checkAllowListed(t)
				raw, err := json.Marshal(res.StructuredContent)
				if err != nil {
					t.Fatal(err)
				}
				answers[p][tc.name] = blankIDs(string(raw), root, sub)
			})
		}
	}
	for _, tc := range subRunCases {
		if !tc.sameAsNewer {
			continue
		}
		if got, want := answers[fakedagu.Profile117][tc.name], answers[fakedagu.Profile129][tc.name]; got != want {
			t.Errorf("%s: 1.17 answers\n%s\nwhere 1.29 answers\n%s", tc.name, got, want)
		}
	}
}

// TestMissingSubRunOfLatestNamesTheRun: a missing sub-run under a root
// addressed as latest is blamed on subRunId with a message naming the run
// latest resolved to (the one the agent can read), never "latest", in
// target and URI mode, on every release with sub-runs.
func TestMissingSubRunOfLatestNamesTheRun(t *testing.T) {
	t.Parallel()
	reads := []struct{ name, args, field string }{
		{"run", `{"target":"run","name":"parent_job","dagRunId":"latest","subRunId":"no_such_sub"}`, "subRunId"},
		{"step log", `{"target":"step_log","name":"parent_job","dagRunId":"latest","subRunId":"no_such_sub","stepName":"child_start"}`, "subRunId"},
		{"foreach items", `{"target":"foreach_items","name":"parent_job","dagRunId":"latest","subRunId":"no_such_sub","stepName":"each"}`, "subRunId"},
		{"run uri", `{"uri":"dagu://runs/parent_job/latest/sub/no_such_sub"}`, "uri"},
	}
	for _, p := range fakedagu.Profiles() {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakedagu.Options{Profile: p, RecordedOnly: true})
			root, _ := recordedSubRun(t, h)
			want := `Sub DAG-run "no_such_sub" was not found under DAG-run "` + root + `" of DAG "parent_job".`
			for _, r := range reads {
				res := h.call(t, r.args)
				var e struct{ Code, Message, Field string }
				raw, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(raw, &e); err != nil || !res.IsError {
					t.Fatalf("%s: %s", r.name, raw)
				}
				if e.Code != "resource_not_found" || e.Field != r.field || e.Message != want {
					t.Errorf("%s: %s, want %q on %s", r.name, raw, want, r.field)
				}
			}
		})
	}
}

// recordedSubRun finds parent_job's latest run and the sub-run its
// run_child step started, through the gateway.
func recordedSubRun(t *testing.T, h *harness) (root, sub string) {
	t.Helper()
	res := h.call(t, `{"target":"run","name":"parent_job","dagRunId":"latest"}`)
	var env struct {
		Data struct {
			DAGRunID string `json:"dagRunId"`
			Steps    []struct {
				Name    string `json:"name"`
				SubRuns []struct {
					SubRunID string `json:"subRunId"`
				} `json:"subRuns"`
			} `json:"steps"`
		} `json:"data"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &env); err != nil || res.IsError {
		t.Fatalf("parent run: %s", raw)
	}
	for _, s := range env.Data.Steps {
		if s.Name == "run_child" && len(s.SubRuns) == 1 {
			return env.Data.DAGRunID, s.SubRuns[0].SubRunID
		}
	}
	t.Fatalf("parent run names no sub-run: %s", raw)
	return "", ""
}

// recordedTime matches the second-precision timestamps of the recordings.
var recordedTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

// blankIDs replaces the run IDs and timestamps of one release's answer, so
// that two releases' answers about the same DAGs compare equal.
func blankIDs(answer, root, sub string) string {
	answer = strings.ReplaceAll(answer, root, "<root>")
	answer = strings.ReplaceAll(answer, sub, "<sub>")
	return recordedTime.ReplaceAllString(answer, "<time>")
}

// errorCode returns the code of an error result, or "".
func errorCode(t *testing.T, isError bool, structured any) string {
	t.Helper()
	if !isError {
		return ""
	}
	var e struct{ Code string }
	raw, _ := json.Marshal(structured)
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.Code
}
