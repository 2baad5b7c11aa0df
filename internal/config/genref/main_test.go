// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const repoRoot = "../../.."

// reference is the committed configuration reference.
func reference(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, referencePath))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReferenceIsCurrent fails when docs/configuration.md differs from
// what the settings table renders: run `go generate ./internal/config`
// and commit the result.
func TestReferenceIsCurrent(t *testing.T) {
	t.Parallel()
	text := reference(t)
	want, err := render(text)
	if err != nil {
		t.Fatal(err)
	}
	if want != text {
		t.Errorf("%s is stale: run `go generate ./internal/config` and commit the result", referencePath)
	}
}

// TestRenderUndoesAHandEdit: an edit inside the generated part is found
// and undone, and the hand-written text around it is kept.
func TestRenderUndoesAHandEdit(t *testing.T) {
	t.Parallel()
	text := reference(t)
	for _, edit := range []struct{ old, new string }{
		{"### `--listen`", "### `--listen-address`"},
		{"- Environment: `DAGU_URL`\n", ""},
	} {
		drifted := strings.Replace(text, edit.old, edit.new, 1)
		if drifted == text {
			t.Fatalf("nothing to drift: %q", edit.old)
		}
		fixed, err := render(drifted)
		if err != nil {
			t.Fatal(err)
		}
		if fixed != text {
			t.Errorf("rendering after %q -> %q did not restore the reference", edit.old, edit.new)
		}
	}
}

// TestRenderNeedsTheMarkers: a reference without its markers is an error,
// never a file silently left alone.
func TestRenderNeedsTheMarkers(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"# Configuration\n", beginMarker + "no end\n", endMarker + beginMarker} {
		if _, err := render(text); err == nil {
			t.Errorf("render(%q) succeeded", text)
		}
	}
}
