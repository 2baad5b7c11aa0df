// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const repoRoot = "../../.."

// TestDerivedTextsAreCurrent fails when a text derived from the target
// rows differs from what the rows render: run `go generate
// ./internal/readtool` and commit the result.
func TestDerivedTextsAreCurrent(t *testing.T) {
	t.Parallel()
	for path, render := range renderers() {
		data, err := os.ReadFile(filepath.Join(repoRoot, path))
		if err != nil {
			t.Fatal(err)
		}
		want, err := render(string(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if want != string(data) {
			t.Errorf("%s is stale: run `go generate ./internal/readtool` and commit the result", path)
		}
	}
}

// TestRenderersNoticeADriftedText: a hand edit inside a generated part is
// found and undone. It compares with what the rows render, not with the
// file, so a text that is merely stale (a new row before go generate) is
// TestDerivedTextsAreCurrent's failure alone.
func TestRenderersNoticeADriftedText(t *testing.T) {
	t.Parallel()
	for path, render := range renderers() {
		data, err := os.ReadFile(filepath.Join(repoRoot, path))
		if err != nil {
			t.Fatal(err)
		}
		drifted := strings.Replace(string(data), "| `step_log` |", "| `steplog` |", 1)
		if drifted == string(data) {
			drifted = strings.Replace(drifted, `"step_log"`, `"steplog"`, 1)
		}
		if drifted == string(data) {
			t.Fatalf("%s: nothing to drift", path)
		}
		want, err := render(string(data))
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := render(drifted)
		if err != nil {
			t.Fatal(err)
		}
		if fixed != want {
			t.Errorf("%s: rendering a drifted text did not restore it", path)
		}
	}
}
