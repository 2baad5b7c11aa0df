// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// TestTextContentJSON: the content of a success follows the server's
// settings unless the request carries the client's own choice
// (reqctx.Output, set by the front door from the MCP URL). The contract's
// text is one item; json mode adds the data in a second item, YAML as
// itself after the other fields; structuredContent never changes.
func TestTextContentJSON(t *testing.T) {
	t.Parallel()
	const spec = `{"target":"dag_spec","name":"a"}`
	const dags = `{"target":"dags"}`
	specData := `{"name":"a","mimeType":"application/yaml","errors":[]}` + "\n\n--- spec (application/yaml, 1 line) ---\nsteps: []"
	dagsData := `{"items":[{"name":"a","uri":"dagu://dags/a/spec","suspended":false}],` +
		`"pagination":{"totalRecords":0,"currentPage":0,"totalPages":0,"nextPage":0,"prevPage":0}}`
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(dagsData), "", "  "); err != nil {
		t.Fatal(err)
	}
	dagsContract := successText + "\n\n" + indented.String()
	for _, tc := range []struct {
		name          string
		server        Options
		choice        *reqctx.Output
		args          string
		texts         []string
		link          bool
		sameAsDefault bool
	}{
		{name: "default", args: spec, texts: []string{successText}, link: true, sameAsDefault: true},
		{name: "server contract", server: Options{TextContent: TextContentContract, ResourceLinks: ResourceLinksContract},
			args: spec, texts: []string{successText}, link: true, sameAsDefault: true},
		{name: "empty choice", choice: &reqctx.Output{}, args: spec, texts: []string{successText}, link: true, sameAsDefault: true},
		{name: "server json", server: Options{TextContent: TextContentJSON}, args: spec, texts: []string{successText, specData}, link: true},
		{name: "client json", choice: &reqctx.Output{TextContent: TextContentJSON}, args: spec, texts: []string{successText, specData}, link: true},
		{name: "client contract on a json server", server: Options{TextContent: TextContentJSON, ResourceLinks: ResourceLinksOmit},
			choice: &reqctx.Output{TextContent: TextContentContract, ResourceLinks: ResourceLinksContract}, args: spec,
			texts: []string{successText}, link: true, sameAsDefault: true},
		{name: "client omit", choice: &reqctx.Output{ResourceLinks: ResourceLinksOmit}, args: spec, texts: []string{successText}},
		{name: "client json and omit", choice: &reqctx.Output{TextContent: TextContentJSON, ResourceLinks: ResourceLinksOmit},
			args: spec, texts: []string{successText, specData}},
		{name: "client json keeps the server's omit", server: Options{ResourceLinks: ResourceLinksOmit},
			choice: &reqctx.Output{TextContent: TextContentJSON}, args: spec, texts: []string{successText, specData}},
		{name: "dags default", args: dags, texts: []string{dagsContract}, sameAsDefault: true},
		{name: "dags json", choice: &reqctx.Output{TextContent: TextContentJSON}, args: dags, texts: []string{successText, dagsData}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := textContentCall(t, tc.server, tc.choice, tc.args)
			var texts []string
			link := false
			for _, c := range res.Content {
				switch c := c.(type) {
				case *mcp.TextContent:
					texts = append(texts, c.Text)
				case *mcp.ResourceLink:
					link = true
				}
			}
			if !slices.Equal(texts, tc.texts) || link != tc.link {
				t.Errorf("texts %q, link %v; want %q, link %v", texts, link, tc.texts, tc.link)
			}
			want := textContentCall(t, Options{}, nil, tc.args)
			if got, def := mustJSON(t, res.StructuredContent), mustJSON(t, want.StructuredContent); got != def {
				t.Errorf("structuredContent changed:\n%s\nwant\n%s", got, def)
			}
			if same := mustJSON(t, res.Content) == mustJSON(t, want.Content); same != tc.sameAsDefault {
				t.Errorf("content same as the default: %v, want %v", same, tc.sameAsDefault)
			}
		})
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, TextContent: "yaml"}); err == nil {
		t.Error("an unknown text content mode was accepted")
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, ResourceLinks: "none"}); err == nil {
		t.Error("an unknown resource-links mode was accepted")
	}
}

// textContentCall makes one read on a tool with the server settings of
// opts, carrying the client's choice when there is one.
func textContentCall(t *testing.T, opts Options, choice *reqctx.Output, args string) *mcp.CallToolResult {
	t.Helper()
	opts.Upstream, opts.References = &stubUpstream{}, stubRefs{}
	tool, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if choice != nil {
		ctx = reqctx.WithOutput(ctx, *choice)
	}
	res := tool.Call(ctx, json.RawMessage(args))
	if res.IsError {
		t.Fatalf("%s: %+v", args, res.StructuredContent)
	}
	return res
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestDataTextCuts: a document too big keeps its first whole lines and
// says where the rest is; a single line too long is kept in part; an answer
// without text fields is cut on whole lines of indented JSON and names the
// query that makes pages smaller; nothing is HTML-escaped.
func TestDataTextCuts(t *testing.T) {
	t.Parallel()
	specCall := &call{target: tDAGSpec, uri: "dagu://dags/a/spec"}
	spec := strings.Repeat("key: <value> & more\n", 10000)
	text := dataText(specCall, &model.DAGSpec{Name: "a", MimeType: "application/yaml", Spec: spec, Errors: []string{}})
	body, note, _ := strings.Cut(text, "\n\n[")
	if len(text) > maxTextData || !strings.HasSuffix(body, "\nkey: <value> & more") ||
		!strings.Contains(note, "last") || !strings.Contains(note, "dagu://dags/a/spec") {
		t.Errorf("cut spec: %d bytes ending %q, note %q", len(text), body[len(body)-40:], note)
	}

	long := strings.Repeat("é", maxTextData)
	logCall := &call{target: tStepLog}
	text = dataText(logCall, &model.StepLog{StdoutContent: "first\n" + long, Stream: "stdout", LineCount: 2, TotalLines: 2})
	if len(text) > maxTextData || !strings.Contains(text, "\n…é") || !strings.Contains(text, "part of a line") {
		t.Errorf("a line too long: %d bytes, %q", len(text), text[len(text)-300:])
	}

	var logLines strings.Builder
	for i := range 12425 {
		logLines.WriteString("log line " + strconv.Itoa(i+1) + " of a long log\n")
	}
	tail := &call{target: tStepLog, query: url.Values{"tail": {"10000"}}}
	window := strings.Join(strings.SplitAfter(logLines.String(), "\n")[2425:12425], "")
	text = dataText(tail, &model.StepLog{StdoutContent: window, Stream: "stdout", LineCount: 10000, TotalLines: 12425})
	if !strings.Contains(text, "\nlog line 12425 of a long log\n\n[Cut") || !strings.Contains(text, `"stream=stdout&offset=2426&limit=`) {
		t.Errorf("tail of an exact log: %q", text[len(text)-400:])
	}

	runs := &model.RunCollection{}
	for i := range 2000 {
		runs.Items = append(runs.Items, model.RunItem{Name: "job<" + strconv.Itoa(i) + ">", DAGRunID: strings.Repeat("x", 40), StatusLabel: "failed"})
	}
	text = dataText(&call{target: tRuns}, runs)
	lines := strings.Split(text, "\n")
	last := lines[len(lines)-1]
	if len(text) > maxTextData || !strings.Contains(text, `"name": "job<0>"`) ||
		!strings.HasPrefix(last, "[Cut") || !strings.Contains(last, "limit") || strings.Contains(lines[len(lines)-2], "[Cut") {
		t.Errorf("cut listing: %d bytes, closing %q", len(text), last)
	}
}
