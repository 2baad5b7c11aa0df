// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

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
