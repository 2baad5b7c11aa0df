// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// linkSources are reads whose answers carry dagu:// links of every shape.
var linkSources = []string{
	`{"target":"references"}`,
	`{"target":"dags"}`,
	`{"target":"dag","name":"parent_job"}`,
	`{"target":"dag_search","search":"echo"}`,
	`{"target":"runs","query":"fromDate=0"}`,
	`{"target":"run",` + failingRun + `}`,
	`{"target":"run",` + parentRun + `}`,
	`{"target":"run",` + parentRun + `,"subRunId":"` + subRunID + `"}`,
	`{"target":"run_logs",` + failingRun + `}`,
	`{"target":"run",` + foreachRun + `}`,
	`{"target":"foreach_items",` + foreachRun + `}`,
	`{"target":"foreach_item",` + foreachRun + `,"item":"1"}`,
	`{"target":"wiki"}`,
	`{"target":"wiki","query":"flat=true"}`,
	`{"target":"wiki_search","search":"the"}`,
}

var daguURI = regexp.MustCompile(`dagu://[^"\s\\]+`)

// TestEveryLinkCanBeRead follows every dagu:// URI the reads above return
// (resource links and URIs inside data) with resources/read: each answers,
// with the MIME type of its shape, and a JSON resource equals the data
// dagu_read returns for the same URI.
func TestEveryLinkCanBeRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{Foreach: fakedagu.ForeachRoutes})
	uris := map[string]bool{}
	for _, args := range linkSources {
		res := h.call(t, args)
		raw, _ := json.Marshal(res)
		for _, u := range daguURI.FindAllString(string(raw), -1) {
			uris[strings.ReplaceAll(u, `\u0026`, "&")] = true
		}
	}
	if len(uris) < 40 {
		t.Fatalf("only %d URIs collected", len(uris))
	}
	for _, uri := range sortedURIs(uris) {
		t.Run(uri, func(t *testing.T) {
			res, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatalf("resources/read: %v", err)
			}
			c := res.Contents[0]
			if c.URI != uri || c.Text == "" {
				t.Fatalf("contents %+v", c)
			}
			if c.MIMEType != "application/json" {
				return
			}
			tool := structuredOf(t, h.call(t, `{"uri":`+quote(uri)+`}`))
			want, _ := json.Marshal(tool["data"])
			var got any
			if err := json.Unmarshal([]byte(c.Text), &got); err != nil {
				t.Fatal(err)
			}
			gotRaw, _ := json.Marshal(got)
			if string(gotRaw) != string(want) {
				t.Fatalf("resource differs from dagu_read's data:\n got %s\nwant %s", gotRaw, want)
			}
		})
	}
}

func sortedURIs(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for u := range m {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

func quote(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// TestResourceListsAndErrors: templates cover every shape, the list holds
// only stable entry points, Markdown and YAML are served as such, and a
// failure carries the contract's code in the error data.
func TestResourceListsAndErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakedagu.Options{RecordedOnly: true})
	ctx := context.Background()
	templates, err := h.session.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) < 15 {
		t.Fatalf("templates: %v %v", err, templates)
	}
	list, err := h.session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		if strings.HasPrefix(r.URI, "dagu://runs/") {
			t.Errorf("resources/list names a run: %s", r.URI)
		}
	}
	for uri, mime := range map[string]string{
		"dagu://reference/read-tool":                    "text/markdown",
		"dagu://dags/failing_job/spec":                  "application/yaml",
		"dagu://wiki/default/runbooks%2Fnightly-export": "text/markdown",
	} {
		res, err := h.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || res.Contents[0].MIMEType != mime || strings.HasPrefix(res.Contents[0].Text, "{") {
			t.Errorf("%s: %v %+v", uri, err, res)
		}
	}
	for uri, want := range map[string]struct {
		rpc  int64
		code string
	}{
		"dagu://runs/failing_job/no_such_run": {jsonrpc.CodeInvalidParams, "resource_not_found"},
		"dagu://dags/failing_job":             {jsonrpc.CodeInvalidParams, "invalid_resource_uri"},
		"dagu://queues":                       {jsonrpc.CodeInvalidParams, "unsupported_resource"},
		"dagu://runs?status=9":                {jsonrpc.CodeInvalidParams, "invalid_resource_uri"},
	} {
		_, err := h.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) {
			t.Fatalf("%s: error %v is not a JSON-RPC error", uri, err)
		}
		var data struct{ Code, URI string }
		_ = json.Unmarshal(rpc.Data, &data)
		if rpc.Code != want.rpc || data.Code != want.code || data.URI != uri {
			t.Errorf("%s: JSON-RPC %d with %s, want %d with %s", uri, rpc.Code, rpc.Data, want.rpc, want.code)
		}
	}
}
