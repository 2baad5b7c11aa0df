// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestWikiTargets pins wiki, wiki_page and wiki_search and their aliases.
func TestWikiTargets(t *testing.T) {
	t.Parallel()
	runGoldenCases(t, fakedagu.Options{RecordedOnly: true}, []goldenCase{
		{"wiki-tree", `{"target":"wiki"}`, 1},
		{"wiki-flat", `{"target":"wiki","query":"flat=true"}`, 1},
		{"wiki-workspace-uri", `{"uri":"dagu://wiki/ops?flat=true"}`, 1},
		{"wiki-prefix-field", `{"target":"wiki","prefix":"runbooks","query":"flat=true"}`, 1},
		{"wiki-prefix-query", `{"target":"wiki","query":"prefix=runbooks&flat=true"}`, 1},
		{"wiki-prefix-conflict", `{"target":"wiki","prefix":"runbooks","query":"prefix=ops"}`, 0},
		{"wiki-page", `{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`, 1},
		{"wiki-page-ops-uri", `{"uri":"dagu://wiki/ops/oncall%2Fhandbook"}`, 1},
		{"wiki-page-missing", `{"target":"wiki_page","workspace":"default","path":"nope/missing"}`, 1},
		{"wiki-page-all", `{"target":"wiki_page","workspace":"all","path":"index"}`, 0},
		{"wiki-search", `{"target":"wiki_search","search":"failing"}`, 1},
		{"wiki-search-limited", `{"target":"wiki_search","search":"the","limit":1}`, 1},
		{"docs-alias", `{"target":"docs","query":"flat=true"}`, 1},
		{"doc-alias", `{"target":"doc","workspace":"ops","path":"oncall/handbook"}`, 1},
		{"doc-search-alias", `{"target":"doc_search","search":"failing","workspace":"ops"}`, 1},
	})
}

func TestWikiSearchCursorRoundTrip(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{RecordedOnly: true})
	first := structuredOf(t, h.call(t, `{"target":"wiki_search","search":"the","limit":1}`))["data"].(map[string]any)
	cursor, _ := first["nextCursor"].(string)
	if first["hasMore"] != true || cursor == "" {
		t.Fatalf("first page: %v", first)
	}
	args, _ := json.Marshal(map[string]any{"target": "wiki_search", "search": "the", "limit": 1, "cursor": cursor})
	second := structuredOf(t, h.call(t, string(args)))["data"].(map[string]any)
	ids := func(d map[string]any) string {
		var out []string
		for _, r := range d["results"].([]any) {
			out = append(out, r.(map[string]any)["id"].(string))
		}
		return strings.Join(out, ",")
	}
	if ids(first) == ids(second) || ids(second) == "" {
		t.Fatalf("cursor did not advance: %s then %s", ids(first), ids(second))
	}
	bad := structuredOf(t, h.call(t, `{"target":"wiki_search","search":"other","cursor":"`+cursor+`"}`))
	if bad["code"] != "invalid_tool_input" || bad["field"] != "cursor" {
		t.Fatalf("foreign cursor: %v", bad)
	}
}

func TestWikiDisabledServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{RecordedOnly: true, WikiDisabled: true})
	for _, args := range []string{
		`{"target":"wiki"}`,
		`{"target":"wiki_page","workspace":"default","path":"index"}`,
		`{"target":"wiki_search","search":"x"}`,
	} {
		out := structuredOf(t, h.call(t, args))
		if out["code"] != "resource_unavailable" || !strings.Contains(out["message"].(string), "wiki is not enabled") {
			t.Fatalf("%s: %v", args, out)
		}
	}
	if res := h.call(t, `{"target":"dags"}`); res.IsError {
		t.Fatal("dags broke on a wiki-less server")
	}
}
