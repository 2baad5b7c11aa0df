// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestURIShapes covers every URI shape of the contract: target
// derivation, the canonical output URI, and the resource link.
func TestURIShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		uri, target, canonical, link, mime string
	}{
		{"dagu://reference", tReferences, "dagu://reference", "dagu_references", "application/json"},
		{"dagu://reference/authoring", tReference, "dagu://reference/authoring", "dagu_reference", "text/markdown"},
		{"DAGU://reference/tools", tReference, "dagu://reference/tools", "dagu_reference", "text/markdown"},
		{"dagu://dags", tDAGs, "dagu://dags", "dags", "application/json"},
		{"dagu://dags?page=2&perPage=3", tDAGs, "dagu://dags?page=2&perPage=3", "dags", "application/json"},
		{"dagu://dags/mcp.read-contract/spec", tDAGSpec, "dagu://dags/mcp.read-contract/spec", "dag_spec", "application/yaml"},
		{"dagu://dags/a/spec/", tDAGSpec, "dagu://dags/a/spec", "dag_spec", "application/yaml"},
		{"dagu://wiki", tWiki, "dagu://wiki", "wiki", "application/json"},
		{"dagu://wiki/ops?flat=true", tWiki, "dagu://wiki/ops?flat=true", "wiki", "application/json"},
		{"dagu://wiki/ops/oncall%2Fhandbook", tWikiPage, "dagu://wiki/ops/oncall%2Fhandbook", "wiki_page", "text/markdown"},
		{"dagu://wiki/default/run%20books%2Fdeploy", tWikiPage, "dagu://wiki/default/run%20books%2Fdeploy", "wiki_page", "text/markdown"},
		{"dagu://docs/default/index", tWikiPage, "dagu://wiki/default/index", "wiki_page", "text/markdown"},
		{"dagu://runs", tRuns, "dagu://runs", "dag_runs", "application/json"},
		{"dagu://runs?status=2&status=3", tRuns, "dagu://runs?status=2&status=3", "dag_runs", "application/json"},
		{"dagu://runs/n/r", tRun, "dagu://runs/n/r", "dag_run", "application/json"},
		{"dagu://runs/n/latest/logs?tail=5", tRunLogs, "dagu://runs/n/latest/logs?tail=5", "dag_run_logs", "application/json"},
		{"dagu://runs/n/r/steps/a%20b/logs", tStepLog, "dagu://runs/n/r/steps/a%20b/logs", "dag_run_step_log", "application/json"},
		{"dagu://runs/n/r/sub/s1", tRun, "dagu://runs/n/r/sub/s1", "sub_dag_run", "application/json"},
		{"dagu://runs/n/r/sub/s1/steps/x/logs?stream=stderr", tStepLog, "dagu://runs/n/r/sub/s1/steps/x/logs?stream=stderr", "sub_dag_run_step_log", "application/json"},
		{"dagu://runs/n/r/steps/each/foreach", tForeachItems, "dagu://runs/n/r/steps/each/foreach", "dag_run_foreach_items", "application/json"},
		{"dagu://runs/n/r/steps/each/foreach/1", tForeachItem, "dagu://runs/n/r/steps/each/foreach/1", "dag_run_foreach_item", "application/json"},
		{"dagu://runs/n/r/steps/each/foreach/1/steps/work/logs", tStepLog, "dagu://runs/n/r/steps/each/foreach/1/steps/work/logs", "dag_run_foreach_step_log", "application/json"},
		{"dagu://runs/n/r/sub/s/steps/each/foreach?status=failed", tForeachItems, "dagu://runs/n/r/sub/s/steps/each/foreach?status=failed", "sub_dag_run_foreach_items", "application/json"},
		{"dagu://runs/n/r/sub/s/steps/each/foreach/1.inner.0", tForeachItem, "dagu://runs/n/r/sub/s/steps/each/foreach/1.inner.0", "sub_dag_run_foreach_item", "application/json"},
		{"dagu://runs/n/r/sub/s/steps/each/foreach/0/steps/work/logs", tStepLog, "dagu://runs/n/r/sub/s/steps/each/foreach/0/steps/work/logs", "sub_dag_run_foreach_step_log", "application/json"},
		{"dagu://runs/sub/steps", tRun, "dagu://runs/sub/steps", "dag_run", "application/json"},
		{"dagu://runs/%C3%BC/r", tRun, "dagu://runs/%C3%BC/r", "dag_run", "application/json"},
		{"dagu://runs/n/r/steps/a%2Fb/logs", tStepLog, "dagu://runs/n/r/steps/a%2Fb/logs", "dag_run_step_log", "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			res := callJSON(t, tool, fmt.Sprintf(`{"uri":%q}`, tt.uri))
			if res.IsError {
				t.Fatalf("refused: %+v", res.StructuredContent)
			}
			out := structured(t, res)
			if out["target"] != tt.target || out["uri"] != tt.canonical {
				t.Fatalf("target=%v uri=%v, want %s %s", out["target"], out["uri"], tt.target, tt.canonical)
			}
			if len(res.Content) != 2 {
				t.Fatalf("content items = %d, want 2", len(res.Content))
			}
			link, ok := res.Content[1].(*mcp.ResourceLink)
			if !ok || link.URI != tt.canonical || link.Name != tt.link || link.MIMEType != tt.mime {
				t.Fatalf("resource link = %+v, want %s %s %s", res.Content[1], tt.canonical, tt.link, tt.mime)
			}
		})
	}
}

// TestURIErrors covers the URI rows of the Errors table.
func TestURIErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		uri    string
		code   Code
		target string
	}{
		{"https://example.com/dags", CodeInvalidResourceURI, ""},
		{"://not-a-uri", CodeInvalidResourceURI, ""},
		{"dagu:dags", CodeInvalidResourceURI, ""},
		{"dagu:///dags", CodeInvalidResourceURI, ""},
		{"dagu://dags:80", CodeInvalidResourceURI, ""},
		{"dagu://user@dags", CodeInvalidResourceURI, ""},
		{"dagu://dags#frag", CodeInvalidResourceURI, ""},
		{"dagu://dags/%zz/spec", CodeInvalidResourceURI, ""},
		{"dagu://dags//spec", CodeInvalidResourceURI, ""},
		{"dagu://dags/a", CodeInvalidResourceURI, ""},
		{"dagu://dags/a/yaml", CodeInvalidResourceURI, ""},
		{"dagu://dags/a/spec?x=1", CodeInvalidResourceURI, tDAGSpec},
		{"dagu://reference/a/b", CodeInvalidResourceURI, ""},
		{"dagu://reference?x=1", CodeInvalidResourceURI, tReferences},
		{"dagu://reference/authoring?x=1", CodeInvalidResourceURI, tReference},
		{"dagu://wiki/all", CodeInvalidResourceURI, ""},
		{"dagu://wiki/all/page", CodeInvalidResourceURI, ""},
		{"dagu://wiki/a%2Fb", CodeInvalidResourceURI, ""},
		{"dagu://wiki/default/..%2Fx", CodeInvalidResourceURI, ""},
		{"dagu://wiki/default/page?x=1", CodeInvalidResourceURI, tWikiPage},
		{"dagu://wiki/a/b/c", CodeInvalidResourceURI, ""},
		{"dagu://wiki?limit=1", CodeInvalidResourceURI, tWiki},
		{"dagu://runs/n", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r?tail=5", CodeInvalidResourceURI, tRun},
		{"dagu://runs/n/r/log", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r/sub/s/logs", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r/steps/s", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r/steps/s/foreach/1?status=failed", CodeInvalidResourceURI, tForeachItem},
		{"dagu://runs/n/r/steps/s/foreach/1/steps/b", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r/sub", CodeInvalidResourceURI, ""},
		{"dagu://runs/n/r/logs?tail=0", CodeInvalidResourceURI, tRunLogs},
		{"dagu://queues", CodeUnsupportedResource, ""},
		{"dagu://Dags", CodeUnsupportedResource, ""},
		{"dagu://mcp/tools", CodeUnsupportedResource, ""},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			t.Parallel()
			tool, _ := newStubTool(t)
			e := errorOf(t, callJSON(t, tool, fmt.Sprintf(`{"uri":%q}`, tt.uri)))
			checkErr(t, e, wantErr{code: tt.code, field: fURI, target: tt.target, uri: tt.uri})
		})
	}
}

// FuzzResolveURI checks that URI parsing never panics and that every
// accepted URI re-parses to the same target and canonical form.
func FuzzResolveURI(f *testing.F) {
	for _, seed := range []string{
		"dagu://reference/authoring", "dagu://dags?page=2", "dagu://wiki/ops/a%2Fb",
		"dagu://runs/n/r/sub/s/steps/x/foreach/1/steps/y/logs?tail=5", "dagu://runs/%zz", "dagu:x",
		"dagu://runs/n/r/steps/s/logs?tail=1&head=2", "dagu://wiki/all",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := resolveURI(raw)
		if err != nil {
			if err.Code != CodeInvalidResourceURI && err.Code != CodeUnsupportedResource {
				t.Fatalf("unexpected code %s", err.Code)
			}
			return
		}
		again, err := resolveURI(c.uri)
		if err != nil {
			t.Fatalf("canonical %q of %q does not re-parse: %v", c.uri, raw, err)
		}
		if again.target != c.target || again.uri != c.uri {
			t.Fatalf("canonical form unstable: %q -> %q (%s) -> %q (%s)", raw, c.uri, c.target, again.uri, again.target)
		}
	})
}
