// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxWiringLines bounds the non-test lines of cmd/gateway (issue 29): the
// command wires packages together, and a feature that grows there belongs
// in a package of its own, with its own tests.
const maxWiringLines = 1000

// TestCommandIsWiring fails when cmd/gateway's non-test Go files hold more
// than maxWiringLines lines.
func TestCommandIsWiring(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(repoRoot, "cmd", "gateway", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(data), "\n")
	}
	if lines == 0 {
		t.Fatal("found no source lines in cmd/gateway")
	}
	if lines > maxWiringLines {
		t.Errorf("cmd/gateway has %d non-test lines, more than %d: move a feature into a package of its own", lines, maxWiringLines)
	}
}
