// SPDX-License-Identifier: Apache-2.0

package readtool

import (
	"encoding/json"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// TestTopicEncodingsReuseTheBytesOfAnUnchangedText: the second read of a
// topic reuses the first read's encoding; a changed text is encoded again;
// either way the bytes are what encoding/json makes of the topic.
func TestTopicEncodingsReuseTheBytesOfAnUnchangedText(t *testing.T) {
	t.Parallel()
	var encs topicEncodings
	read := func(text string) []byte {
		t.Helper()
		topic := &model.ReferenceTopic{Name: "read-tool", MimeType: mimeMarkdown, Text: text}
		data, err := encs.of(topic)
		if err != nil {
			t.Fatal(err)
		}
		value, raw, err := encode(data)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(topic)
		if string(raw) != string(want) || value != any(topic) {
			t.Fatalf("encoding %s, want %s", raw, want)
		}
		if again, _ := json.Marshal(data); string(again) != string(want) {
			t.Fatalf("the data marshals as %s, want %s", again, want)
		}
		return raw
	}
	first := read("# a & b")
	if second := read("# a & b"); &second[0] != &first[0] {
		t.Error("an unchanged topic was encoded again")
	}
	if changed := read("# c"); &changed[0] == &first[0] {
		t.Error("a changed topic kept its old encoding")
	}
}
