// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTextContentJSON: in json mode the text carries the data after the
// contract's success text (the default stays the contract's text), and a
// huge answer is cut with a note.
func TestTextContentJSON(t *testing.T) {
	for _, mode := range []string{"", TextContentContract, TextContentJSON} {
		tool, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, TextContent: mode})
		if err != nil {
			t.Fatal(err)
		}
		res := tool.Call(context.Background(), json.RawMessage(`{"target":"dag_spec","name":"a"}`))
		text := res.Content[0].(*mcp.TextContent).Text
		want := successText
		if mode == TextContentJSON {
			want = successText + "\n\n" + `{"name":"a","mimeType":"application/yaml","spec":"steps: []\n","errors":[]}`
		}
		if text != want {
			t.Errorf("mode %q: text %q, want %q", mode, text, want)
		}
	}
	if _, err := New(Options{Upstream: &stubUpstream{}, References: stubRefs{}, TextContent: "yaml"}); err == nil {
		t.Error("an unknown text content mode was accepted")
	}
	huge := []byte(`"` + strings.Repeat("é", maxTextData) + `"`)
	cut := cutText(huge)
	if len(cut) > maxTextData+200 || !strings.Contains(cut, "[truncated:") || !strings.HasPrefix(cut, `"é`) {
		t.Errorf("cut text of %d bytes: %q...", len(cut), cut[:20])
	}
}
