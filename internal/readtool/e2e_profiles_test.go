// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// profileCase is one read made against every Dagu release the fake
// imitates. want maps a profile to the error code it must answer ("" for
// success); profiles not listed must succeed.
type profileCase struct {
	name, args string
	want       map[fakedagu.Profile]string
}

// Reads every release can serve from its own data, and what the releases
// that lack a feature must answer instead (never resource_not_found for a
// missing feature).
var profileCases = []profileCase{
	{name: "dags", args: `{"target":"dags"}`},
	{name: "dags-labels", args: `{"target":"dags","query":"labels=team-a"}`},
	{name: "dags-two-labels", args: `{"target":"dags","query":"labels=nightly,TEAM-A"}`},
	{name: "dags-two-labels-past-the-end", args: `{"target":"dags","query":"labels=nightly,team-a&page=2&perPage=1"}`},
	{name: "dag", args: `{"target":"dag","name":"failing_job"}`},
	{name: "dag-spec", args: `{"target":"dag_spec","name":"failing_job"}`},
	{name: "dag-spec-missing", args: `{"target":"dag_spec","name":"no_such_dag"}`, want: allProfiles("resource_not_found")},
	{name: "dag-search", args: `{"target":"dag_search","search":"ECHO"}`},
	{name: "dag-search-limited", args: `{"target":"dag_search","search":"echo","limit":2}`},
	{name: "dag-search-other-workspace", args: `{"target":"dag_search","search":"echo","workspace":"ops"}`,
		want: map[fakedagu.Profile]string{fakedagu.Profile20: "resource_not_found", fakedagu.Profile129: "resource_not_found", fakedagu.Profile117: "resource_not_found"}},
	{name: "wiki", args: `{"target":"wiki"}`, want: noWikiOn1x()},
	{name: "wiki-flat", args: `{"target":"wiki","query":"flat=true"}`, want: noWikiOn1x()},
	{name: "wiki-prefix-flat", args: `{"target":"wiki","prefix":"runbooks","query":"flat=true"}`, want: noWikiOn1x()},
	{name: "wiki-prefix-tree", args: `{"target":"wiki","prefix":"runbooks"}`, want: noWikiOn1x()},
	{name: "wiki-page", args: `{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`, want: noWikiOn1x()},
	{name: "wiki-page-missing", args: `{"target":"wiki_page","workspace":"default","path":"nope/missing"}`,
		want: merge(allProfiles("resource_not_found"), noWikiOn1x())},
	{name: "wiki-search", args: `{"target":"wiki_search","search":"FAILING"}`, want: noWikiOn1x()},
	{name: "wiki-search-prefix", args: `{"target":"wiki_search","search":"the","prefix":"runbooks"}`, want: noWikiOn1x()},
	{name: "runs-all-time", args: `{"target":"runs","query":"fromDate=0"}`},
	{name: "runs-two-statuses", args: `{"target":"runs","query":"fromDate=0&status=2&status=4"}`},
	{name: "runs-limited", args: `{"target":"runs","query":"fromDate=0&limit=2"}`},
	{name: "runs-labels", args: `{"target":"runs","query":"fromDate=0&labels=team-a"}`},
	{name: "runs-latest-of-a-dag", args: `{"target":"runs","query":"name=failing_job&dagRunId=latest"}`},
	{name: "run-latest", args: `{"target":"run","name":"failing_job","dagRunId":"latest"}`},
	{name: "run-latest-of-a-dag-without-runs", args: `{"target":"run","name":"no_such_dag","dagRunId":"latest"}`, want: allProfiles("resource_not_found")},
	{name: "run-logs-latest", args: `{"target":"run_logs","name":"failing_job","dagRunId":"latest","query":"tail=5"}`},
	{name: "foreach-items-of-a-plain-step", args: `{"target":"foreach_items","name":"failing_job","dagRunId":"latest","stepName":"prepare"}`,
		want: noForeachOn1x()},
	{name: "foreach-item-of-a-plain-step", args: `{"target":"foreach_item","name":"failing_job","dagRunId":"latest","stepName":"prepare","item":"0"}`,
		want: noForeachOn1x()},
	{name: "foreach-items-uri-of-a-missing-run", args: `{"uri":"dagu://runs/failing_job/no_such_run/steps/explode/foreach"}`,
		want: allProfiles("resource_not_found")},
	{name: "body-step-log-of-a-missing-run", args: `{"target":"step_log","name":"failing_job","dagRunId":"no_such_run","stepName":"explode","item":"0","bodyStepName":"work"}`,
		want: allProfiles("resource_not_found")},
	{name: "body-step-log-of-a-plain-step", args: `{"target":"step_log","name":"failing_job","dagRunId":"latest","stepName":"prepare","item":"0","bodyStepName":"work"}`,
		want: noForeachOn1x()},
	{name: "foreach-items-of-a-missing-step", args: `{"target":"foreach_items","name":"failing_job","dagRunId":"latest","stepName":"explod"}`,
		want: allProfiles("resource_not_found")},
	{name: "foreach-item-of-latest-of-a-missing-dag", args: `{"target":"foreach_item","name":"failing_jbo","dagRunId":"latest","stepName":"each","item":"0"}`,
		want: allProfiles("resource_not_found")},
	{name: "foreach-item-of-a-missing-sub-run", args: `{"target":"foreach_item","name":"parent_job","dagRunId":"latest","subRunId":"no_such_sub","stepName":"each","item":"0"}`,
		want: allProfiles("resource_not_found")},
	{name: "sub-run-of-a-missing-run", args: `{"target":"run","name":"parent_job","dagRunId":"nope","subRunId":"nope"}`,
		want: allProfiles("resource_not_found")},
}

func allProfiles(code string) map[fakedagu.Profile]string {
	out := map[fakedagu.Profile]string{}
	for _, p := range fakedagu.Profiles() {
		out[p] = code
	}
	return out
}

func noWikiOn1x() map[fakedagu.Profile]string {
	return map[fakedagu.Profile]string{fakedagu.Profile129: "resource_unavailable", fakedagu.Profile117: "resource_unavailable"}
}

// noForeachOn1x: foreach reads of a step that is not a foreach step are
// resource_not_found where foreach exists, and resource_unavailable on
// 1.x, which has neither the /foreach routes nor the step-log downloads a
// foreach summary is read from (a missing DAG, run, sub-run or step is
// resource_not_found there too).
func noForeachOn1x() map[fakedagu.Profile]string {
	return merge(allProfiles("resource_not_found"), map[fakedagu.Profile]string{
		fakedagu.Profile129: "resource_unavailable", fakedagu.Profile117: "resource_unavailable"})
}

func merge(a, b map[fakedagu.Profile]string) map[fakedagu.Profile]string {
	out := map[fakedagu.Profile]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestEveryDaguRelease runs the same reads against every release the fake
// imitates: each answer is pinned as a golden file per release
// (testdata/golden/profiles/<profile>/), and its code must be the one the
// release can honestly give.
func TestEveryDaguRelease(t *testing.T) {
	t.Parallel()
	for _, p := range fakedagu.Profiles() {
		t.Run(string(p), func(t *testing.T) {
			h := newHarness(t, fakedagu.Options{Profile: p, RecordedOnly: true})
			for _, tc := range profileCases {
				t.Run(tc.name, func(t *testing.T) {
					h.fake.Reset()
					res := h.call(t, tc.args)
					golden(t, filepath.Join("profiles", string(p), tc.name), tc.args, res)
					got := ""
					if res.IsError {
						var e struct{ Code string }
						raw, _ := json.Marshal(res.StructuredContent)
						_ = json.Unmarshal(raw, &e)
						got = e.Code
					}
					if want := tc.want[p]; got != want {
						t.Errorf("code %q, want %q", got, want)
					}
					h.checkAllowListed(t)
				})
			}
		})
	}
}

// TestCursorsWalkEveryRelease pages dag_search and runs two at a time on
// every release, following nextCursor, and checks the pages add up to the
// whole list with nothing repeated; a cursor of another query is refused.
func TestCursorsWalkEveryRelease(t *testing.T) {
	t.Parallel()
	walks := []struct {
		name, first, all, key string
		page                  func(cursor string) string
	}{
		{"dag_search", `{"target":"dag_search","search":"echo","limit":2}`, `{"target":"dag_search","search":"echo","limit":50}`, "results",
			func(c string) string { return `{"target":"dag_search","search":"echo","limit":2,"cursor":"` + c + `"}` }},
		{"runs", `{"target":"runs","query":"fromDate=0&limit=2"}`, `{"target":"runs","query":"fromDate=0&limit=500"}`, "items",
			func(c string) string { return `{"target":"runs","query":"fromDate=0&limit=2&cursor=` + c + `"}` }},
	}
	for _, p := range fakedagu.Profiles() {
		h := newHarness(t, fakedagu.Options{Profile: p, RecordedOnly: true})
		for _, w := range walks {
			t.Run(string(p)+"/"+w.name, func(t *testing.T) {
				want := len(dataOf(t, h.call(t, w.all))[w.key].([]any))
				seen, args := map[string]bool{}, w.first
				for pages := 0; args != ""; pages++ {
					if pages > want {
						t.Fatal("the cursor walk does not end")
					}
					data := dataOf(t, h.call(t, args))
					for _, it := range data[w.key].([]any) {
						id, _ := json.Marshal(it)
						if seen[string(id)] {
							t.Fatalf("repeated on a later page: %s", id)
						}
						seen[string(id)] = true
					}
					args = ""
					if c, _ := data["nextCursor"].(string); c != "" {
						args = w.page(url.QueryEscape(c))
						if w.name == "dag_search" {
							args = w.page(c)
						}
					}
				}
				if len(seen) != want {
					t.Fatalf("walked %d items, the whole list has %d", len(seen), want)
				}
			})
		}
	}
}

func dataOf(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		raw, _ := json.Marshal(res.StructuredContent)
		t.Fatalf("error: %s", raw)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var env struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	return env.Data
}
