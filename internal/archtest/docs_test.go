// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the module's root, two levels above this package.
const repoRoot = "../.."

// goFiles returns the module's Go files (tools/ is its own module and
// left out), test files only when tests is true.
func goFiles(t *testing.T, tests bool) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "tools":
				return filepath.SkipDir
			}
			return nil
		}
		isTest := strings.HasSuffix(path, "_test.go")
		if !strings.HasSuffix(path, ".go") || isTest != tests {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(path)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestEveryMetricIsDocumented: every Prometheus metric the gateway
// registers (a dagu_gateway_* or mcp_server_* name in a non-test source
// file) is named in the README, so an operator can find what it counts.
func TestEveryMetricIsDocumented(t *testing.T) {
	t.Parallel()
	text := readme(t)
	names := regexp.MustCompile(`"((?:dagu_gateway|mcp_server)_[a-z_]+)"`)
	seen := map[string]string{}
	for path, src := range goFiles(t, false) {
		for _, m := range names.FindAllStringSubmatch(src, -1) {
			seen[m[1]] = path
		}
	}
	if len(seen) == 0 {
		t.Fatal("found no metric names in the sources")
	}
	for name, path := range seen {
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(text) {
			t.Errorf("README.md does not document the metric %s (registered in %s)", name, path)
		}
	}
}

// TestREADMELayoutNamesEveryPackage: the README's Layout paragraph names
// every package directory under internal/.
func TestREADMELayoutNamesEveryPackage(t *testing.T) {
	t.Parallel()
	_, layout, ok := strings.Cut(readme(t), "Layout (")
	if !ok {
		t.Fatal("README.md has no Layout paragraph")
	}
	layout, _, _ = strings.Cut(layout, "\n\n")
	entries, err := os.ReadDir(filepath.Join(repoRoot, "internal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(layout, "`internal/"+e.Name()) {
			t.Errorf("README.md's Layout paragraph does not name internal/%s", e.Name())
		}
	}
}

// TestCommentsCiteTestsThatExist: a comment in the sources that names a
// Test function (TestXxx) names one that is declared somewhere in the
// module, so a renamed test cannot leave a stale pointer behind.
func TestCommentsCiteTestsThatExist(t *testing.T) {
	t.Parallel()
	declared := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test[A-Z]\w*)\(`)
	for _, src := range goFiles(t, true) {
		for _, m := range decl.FindAllStringSubmatch(src, -1) {
			declared[m[1]] = true
		}
	}
	cited := regexp.MustCompile(`(?m)^\s*//.*?\b(Test[A-Z]\w*)`)
	var stale []string
	for path, src := range goFiles(t, false) {
		for _, m := range cited.FindAllStringSubmatch(src, -1) {
			if !declared[m[1]] {
				stale = append(stale, path+" cites "+m[1])
			}
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		t.Errorf("%s, which no test file declares", s)
	}
}
