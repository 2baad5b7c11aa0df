// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"go/build"
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

// TestServerBuildLeavesOutTheDemo: built with the nodemo tag (make build,
// the container image), cmd/gateway reaches neither the demo nor the fake
// Dagu with its recordings; the default build reaches both.
func TestServerBuildLeavesOutTheDemo(t *testing.T) {
	t.Parallel()
	demoPackages := []string{"internal/demo", "internal/fakedagu"}
	for _, tc := range []struct {
		tags  []string
		wants bool
	}{{nil, true}, {[]string{"nodemo"}, false}} {
		reached := reachableWithTags(t, "cmd/gateway", tc.tags)
		for _, pkg := range demoPackages {
			if reached[pkg] != tc.wants {
				t.Errorf("with tags %v, cmd/gateway reaches %s: %v, want %v", tc.tags, pkg, reached[pkg], tc.wants)
			}
		}
	}
}

// reachableWithTags lists the gateway packages the non-test files of pkg
// reach, directly or not, when built with tags.
func reachableWithTags(t *testing.T, pkg string, tags []string) map[string]bool {
	t.Helper()
	ctx := build.Default
	ctx.BuildTags = tags
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		found, err := ctx.ImportDir(filepath.Join(repoRoot, filepath.FromSlash(p)), 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, imp := range found.Imports {
			if rest, ok := strings.CutPrefix(imp, module); ok && !seen[rest] {
				seen[rest] = true
				visit(rest)
			}
		}
	}
	visit(pkg)
	return seen
}
