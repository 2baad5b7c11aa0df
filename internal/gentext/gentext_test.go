// SPDX-License-Identifier: Apache-2.0

package gentext_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/gentext"
)

const (
	begin = "<!-- begin -->\n"
	end   = "<!-- end -->\n"
)

// TestBetweenReplacesOnlyTheGeneratedPart: the hand-written text around
// the markers is kept; a missing marker is named.
func TestBetweenReplacesOnlyTheGeneratedPart(t *testing.T) {
	t.Parallel()
	got, err := gentext.Between("intro\n"+begin+"stale\n"+end+"outro\n", begin, end, "fresh\n")
	if want := "intro\n" + begin + "fresh\n" + end + "outro\n"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	for _, text := range []string{"no markers\n", begin + "no end\n", "no begin\n" + end} {
		if _, err := gentext.Between(text, begin, end, "x"); err == nil || !strings.Contains(err.Error(), "marker") {
			t.Errorf("%q: error %v, want a missing marker", text, err)
		}
	}
}

// TestRewriteWritesWhatChanged: a file whose text renders differently is
// written, and a renderer's error names the file and leaves it alone.
func TestRewriteWritesWhatChanged(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, text := range map[string]string{"a.md": "old\n", "b.md": "keep\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	err := gentext.Rewrite(root, map[string]gentext.Renderer{
		"a.md": func(string) (string, error) { return "new\n", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "a.md")); string(data) != "new\n" {
		t.Errorf("a.md holds %q, want the rendered text", data)
	}
	err = gentext.Rewrite(root, map[string]gentext.Renderer{
		"b.md": func(string) (string, error) { return "", errors.New("broken table") },
	})
	if err == nil || !strings.Contains(err.Error(), "b.md: broken table") {
		t.Errorf("error %v, want one naming b.md", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "b.md")); string(data) != "keep\n" {
		t.Errorf("b.md holds %q after a failed render", data)
	}
}
