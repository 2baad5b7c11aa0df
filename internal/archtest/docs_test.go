// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
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

// repoDoc is a documentation file of the repository, by its path from the
// root (README.md, docs/operations.md).
func repoDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestEveryMetricIsDocumented: every Prometheus metric the gateway
// registers (a dagu_gateway_* or mcp_server_* name in a non-test source
// file) is named in the operations guide, so an operator can find what it
// counts.
func TestEveryMetricIsDocumented(t *testing.T) {
	t.Parallel()
	text := repoDoc(t, "docs/operations.md")
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
			t.Errorf("docs/operations.md does not document the metric %s (registered in %s)", name, path)
		}
	}
}

// packageMap is the code block that opens docs/architecture.md: the one
// map of the packages.
func packageMap(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```\n")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("docs/architecture.md has no package map (a ``` block)")
	}
	return block
}

// mapProblems compares the packages a map names with the package
// directories under internal/ and cmd/: each directory must be named, and
// each name must be a directory.
func mapProblems(block string, dirs []string) []string {
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b(?:internal|cmd)/[a-z0-9_]+`).FindAllString(block, -1) {
		named[m] = true
	}
	var problems []string
	for _, d := range dirs {
		if !named[d] {
			problems = append(problems, "does not name "+d)
		}
		delete(named, d)
	}
	for name := range named {
		problems = append(problems, "names "+name+", which is not a package directory")
	}
	sort.Strings(problems)
	return problems
}

// packageDirs lists the directories under internal/ and cmd/.
func packageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, parent := range []string{"internal", "cmd"} {
		entries, err := os.ReadDir(filepath.Join(repoRoot, parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, parent+"/"+e.Name())
			}
		}
	}
	return dirs
}

// TestPackageMapNamesEveryPackage: docs/architecture.md's package map (the
// only one) names every package directory under internal/ and cmd/, and no
// package that is gone.
func TestPackageMapNamesEveryPackage(t *testing.T) {
	t.Parallel()
	for _, p := range mapProblems(packageMap(t), packageDirs(t)) {
		t.Errorf("docs/architecture.md's package map %s", p)
	}
}

// TestPackageMapCheckFindsDrift: the check fails for a package the map
// leaves out and for one it names that is gone.
func TestPackageMapCheckFindsDrift(t *testing.T) {
	t.Parallel()
	block := "cmd/gateway   wiring\ninternal/model   models (see internal/gone)\n"
	got := mapProblems(block, []string{"cmd/gateway", "internal/model", "internal/new"})
	want := []string{"does not name internal/new", "names internal/gone, which is not a package directory"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
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

// readerDocs are the Markdown files a reader follows from the README: the
// README, the contributing guide and every page of docs/.
func readerDocs(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	names := []string{"README.md", "CONTRIBUTING.md"}
	for _, p := range pages {
		names = append(names, "docs/"+filepath.Base(p))
	}
	return names
}

// outsideCode is a Markdown text without its fenced code blocks, whose
// lines are neither headings nor links.
func outsideCode(text string) string {
	var kept []string
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if !inCode {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// headingAnchors are the anchors GitHub gives a Markdown text's headings:
// lower case, punctuation but - and _ dropped, spaces as -, a repeated
// one numbered.
func headingAnchors(text string) map[string]bool {
	heading := regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	dropped := regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(outsideCode(text), -1) {
		a := strings.ReplaceAll(dropped.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestDocLinksResolve: every relative link of the README, the contributing
// guide and docs/ names a file of the repository, and a link to a heading
// (#anchor) names one its Markdown file has, so moving a section cannot
// leave a link to nowhere.
func TestDocLinksResolve(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, name := range readerDocs(t) {
		for _, m := range link.FindAllStringSubmatch(outsideCode(repoDoc(t, name)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := name
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(name), file))
			}
			if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(path))); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !headingAnchors(repoDoc(t, path))[anchor] {
				t.Errorf("%s links to %s: %s has no heading #%s", name, target, path, anchor)
			}
		}
	}
}
