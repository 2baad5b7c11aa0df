// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestTextContentJSON: in json mode the text carries the data after the
// contract's success text (the default stays the contract's text), YAML as
// itself after the other fields.
func TestTextContentJSON(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"", TextContentContract, TextContentJSON} {
		tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, TextContent: mode})
		if err != nil {
			t.Fatal(err)
		}
		res := tool.Call(context.Background(), json.RawMessage(`{"target":"dag_spec","name":"a"}`))
		text := res.Content[0].(*mcp.TextContent).Text
		want := successText
		if mode == TextContentJSON {
			want = successText + "\n\n" + `{"name":"a","mimeType":"application/yaml","errors":[]}` +
				"\n\n--- spec (application/yaml, 1 line) ---\nsteps: []"
		}
		if text != want {
			t.Errorf("mode %q: text %q, want %q", mode, text, want)
		}
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, TextContent: "yaml"}); err == nil {
		t.Error("an unknown text content mode was accepted")
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, ResourceLinks: "none"}); err == nil {
		t.Error("an unknown resource-links mode was accepted")
	}
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
