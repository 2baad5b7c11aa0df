// SPDX-License-Identifier: Apache-2.0

package readtool_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
	"github.com/dagu-mcp-gateway/gateway/internal/readtool"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// What text-only clients and clients that turn links into attachments
// receive (issue 21, rows "LangChain crash", "--text-content json cuts the
// wrong end" and "Markdown and YAML JSON-escaped").

func newTextHarness(t *testing.T, edit func(*readtool.Options)) *harness {
	t.Helper()
	if edit == nil {
		edit = func(*readtool.Options) {}
	}
	return newHarnessWith(t, fakedagu.Options{RecordedOnly: true},
		restclient.Config{Key: restclient.StaticKey(testKey), Timeout: 5 * time.Second}, edit)
}

func withTextContent(mode string) func(*readtool.Options) {
	return func(o *readtool.Options) { o.TextContent = mode }
}

// textOf is a result's first text content.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	return textAt(t, res, 0)
}

// dataTextOf is the second text content of a json-mode result: its data.
func dataTextOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if text := textAt(t, res, 0); text != "Dagu read completed." {
		t.Fatalf("content[0] is %q, want the success text alone", text)
	}
	return textAt(t, res, 1)
}

// textAt is a result's content[i], which must be text.
func textAt(t *testing.T, res *mcp.CallToolResult, i int) string {
	t.Helper()
	if res.IsError || len(res.Content) <= i {
		t.Fatalf("unexpected result: %+v", res)
	}
	text, ok := res.Content[i].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[%d] is %T, not text", i, res.Content[i])
	}
	return text.Text
}

// TestResourceLinksOmit: with ResourceLinksOmit no read carries a
// resource_link in its content, while structuredContent stays byte for byte
// what the contract's default gives; the default keeps the link.
func TestResourceLinksOmit(t *testing.T) {
	t.Parallel()
	contract := newTextHarness(t, nil)
	omit := newTextHarness(t, func(o *readtool.Options) { o.ResourceLinks = readtool.ResourceLinksOmit })
	for _, args := range []string{
		`{"target":"reference"}`,
		`{"target":"dag_spec","name":"failing_job"}`,
		`{"target":"run","name":"failing_job","dagRunId":"latest"}`,
		`{"target":"step_log",` + failingRun + `,"stepName":"explode"}`,
		`{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`,
		`{"uri":"dagu://runs/failing_job/latest/logs"}`,
		`{"uri":"dagu://dags"}`,
	} {
		withLink, without := contract.call(t, args), omit.call(t, args)
		if len(withLink.Content) != 2 {
			t.Fatalf("%s: the default gave %d content items, want text and resource_link", args, len(withLink.Content))
		}
		if _, ok := withLink.Content[1].(*mcp.ResourceLink); !ok {
			t.Fatalf("%s: the default's content[1] is %T", args, withLink.Content[1])
		}
		if len(without.Content) != 1 {
			t.Errorf("%s: omit gave %d content items, want the text alone", args, len(without.Content))
		}
		for _, c := range without.Content {
			if _, ok := c.(*mcp.ResourceLink); ok {
				t.Errorf("%s: omit still sent a resource_link", args)
			}
		}
		if textOf(t, withLink) != textOf(t, without) {
			t.Errorf("%s: omit changed the text", args)
		}
		a, _ := json.Marshal(withLink.StructuredContent)
		b, _ := json.Marshal(without.StructuredContent)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: structuredContent differs:\n%s\n%s", args, a, b)
		}
	}
}

// bigLogLine is line n of the fake's 20,000-line log.
func bigLogLine(n int) string { return fmt.Sprintf("line %d of the big log", n) }

// TestTextContentLogWindows: a step log too big for the text keeps the
// window the query asked for, cut on whole lines (the newest lines for
// tail, the oldest for head and offset), and its closing line says how many
// lines were left out and which query reads them.
func TestTextContentLogWindows(t *testing.T) {
	t.Parallel()
	h := newTextHarness(t, withTextContent(readtool.TextContentJSON))
	for _, tc := range []struct {
		name, query string
		// first and last are the line numbers the log block must start and
		// end with; note are texts the closing line must hold.
		first, last int
		note        []string
	}{
		{name: "tail", query: "stream=stdout&tail=10000", last: 20000,
			note: []string{"oldest lines of stdoutContent", `"tail=`}},
		{name: "head", query: "stream=stdout&head=10000", first: 1,
			note: []string{"last lines of stdoutContent", `"head=`}},
		{name: "offset", query: "stream=stdout&offset=5001&limit=10000", first: 5001,
			note: []string{"last lines of stdoutContent", `"offset=5001&limit=`}},
		{name: "both streams", query: "tail=10000", last: 20000,
			note: []string{"oldest lines of stdoutContent", `"tail=`}},
	} {
		text := dataTextOf(t, h.call(t, `{"target":"step_log",`+bigLogRun+`,"stepName":"spew","query":"`+tc.query+`"}`))
		if len(text) > 64<<10+200 {
			t.Errorf("%s: text of %d bytes", tc.name, len(text))
		}
		head, rest, ok := strings.Cut(text, "\n--- stdoutContent (log lines, 10000 lines) ---\n")
		if !ok {
			t.Fatalf("%s: no stdout heading in %.300q", tc.name, text)
		}
		if strings.Contains(head, "stdoutContent") || !strings.Contains(head, `"lineCount":10000`) {
			t.Errorf("%s: the JSON part is %q", tc.name, head)
		}
		block, note, _ := strings.Cut(rest, "\n\n")
		if tc.name == "both streams" {
			block, _, _ = strings.Cut(rest, "\n\n--- stderrContent")
			note = rest[strings.LastIndex(rest, "\n\n[")+2:]
		}
		lines := strings.Split(block, "\n")
		if !wholeBigLogLines(lines) {
			t.Errorf("%s: the block has a cut line: %q ... %q", tc.name, lines[0], lines[len(lines)-1])
		}
		if tc.last != 0 && lines[len(lines)-1] != bigLogLine(tc.last) {
			t.Errorf("%s: the block ends with %q, want %q", tc.name, lines[len(lines)-1], bigLogLine(tc.last))
		}
		if tc.first != 0 && lines[0] != bigLogLine(tc.first) {
			t.Errorf("%s: the block starts with %q, want %q", tc.name, lines[0], bigLogLine(tc.first))
		}
		leftOut := fmt.Sprintf("left out the %d ", 10000-len(lines))
		if !strings.HasPrefix(note, "[Cut") || !strings.Contains(note, leftOut) || strings.Contains(note, "structuredContent") {
			t.Errorf("%s: closing line %q, want it to say %q", tc.name, note, leftOut)
		}
		for _, want := range tc.note {
			if !strings.Contains(note, want) {
				t.Errorf("%s: closing line %q lacks %q", tc.name, note, want)
			}
		}
	}
}

// wholeBigLogLines reports whether every line is a whole line of the big
// log, in order.
func wholeBigLogLines(lines []string) bool {
	var n int
	if _, err := fmt.Sscanf(lines[0], "line %d of the big log", &n); err != nil {
		return false
	}
	for i, l := range lines {
		if l != bigLogLine(n+i) {
			return false
		}
	}
	return true
}

// TestTextContentDocumentsAsThemselves: YAML specs, reference topics and
// wiki pages reach a text-only client as themselves, with the data's other
// fields as JSON before them; a log that fits is whole.
func TestTextContentDocumentsAsThemselves(t *testing.T) {
	t.Parallel()
	h := newTextHarness(t, withTextContent(readtool.TextContentJSON))
	for _, tc := range []struct {
		args, field, heading string
	}{
		{`{"target":"dag_spec","name":"failing_job"}`, "spec", "--- spec (application/yaml, "},
		{`{"target":"reference","name":"authoring"}`, "text", "--- text (text/markdown, "},
		{`{"target":"wiki_page","workspace":"default","path":"runbooks/nightly-export"}`, "content", "--- content (text/markdown, "},
		{`{"target":"step_log",` + failingRun + `,"stepName":"explode","query":"stream=stderr"}`, "stderrContent", "--- stderrContent (log lines, "},
	} {
		res := h.call(t, tc.args)
		data := structuredOf(t, res)["data"].(map[string]any)
		doc := data[tc.field].(string)
		text := dataTextOf(t, res)
		jsonPart, block, ok := strings.Cut(text, "\n\n"+tc.heading)
		if !ok {
			t.Fatalf("%s: no %q heading in %.400q", tc.args, tc.heading, text)
		}
		_, body, _ := strings.Cut(block, "\n")
		if body != strings.TrimSuffix(doc, "\n") {
			t.Errorf("%s: the %s block is not the document itself:\n%.300q\nwant\n%.300q", tc.args, tc.field, body, doc)
		}
		var other map[string]any
		if err := json.Unmarshal([]byte(jsonPart), &other); err != nil {
			t.Fatalf("%s: the part before the document is not JSON: %v\n%.300q", tc.args, err, jsonPart)
		}
		for k, v := range data {
			if _, there := other[k]; there == (k == tc.field) {
				t.Errorf("%s: field %s (%v) misplaced: the JSON part is %v", tc.args, k, v, other)
			}
		}
	}
}
