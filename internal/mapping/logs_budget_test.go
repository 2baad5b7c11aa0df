// SPDX-License-Identifier: Apache-2.0

package mapping

import (
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

func TestKeepTail(t *testing.T) {
	t.Parallel()
	n, more := 3, false
	small := &gen.Log{Content: "a\nb\nc", LineCount: &n, HasMore: &more}
	tests := []struct {
		name      string
		in        *gen.Log
		max       int
		content   string
		lineCount int
		hasMore   bool
	}{
		{"fits", small, 10, "a\nb\nc", 3, false},
		{"no budget", small, 0, "a\nb\nc", 3, false},
		{"cut at a line", &gen.Log{Content: "one\ntwo\nthree", LineCount: &n}, 9, "three", 1, true},
		{"cut mid line keeps whole lines", &gen.Log{Content: "aaaa\nbb\ncc", LineCount: &n}, 6, "bb\ncc", 2, true},
		{"one long line", &gen.Log{Content: strings.Repeat("x", 20)}, 5, "xxxxx", 1, true},
		{"rune boundary", &gen.Log{Content: "ééééé"}, 5, "éé", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LogWindow(KeepTail(tt.in, tt.max))
			if got.Content != tt.content || got.LineCount != tt.lineCount || got.HasMore != tt.hasMore {
				t.Fatalf("got %q lines=%d more=%v", got.Content, got.LineCount, got.HasMore)
			}
		})
	}
	if KeepTail(nil, 5) != nil {
		t.Fatal("nil log")
	}
}

func FuzzKeepTail(f *testing.F) {
	f.Add("a\nb\nc", 2)
	f.Add("ééé\nx", 3)
	f.Fuzz(func(t *testing.T, content string, max int) {
		got := KeepTail(&gen.Log{Content: content}, max)
		if max > 0 && len(got.Content) > max {
			t.Fatalf("kept %d bytes over %d", len(got.Content), max)
		}
		if !strings.HasSuffix(content, got.Content) {
			t.Fatalf("%q is not a tail of %q", got.Content, content)
		}
	})
}
