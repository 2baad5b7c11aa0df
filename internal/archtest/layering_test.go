// SPDX-License-Identifier: Apache-2.0

// Package archtest keeps the few edges that must never exist in the
// gateway's import graph: the tool never reaches REST or the generated
// types, the transport never reaches the contract, the generated types stay
// in the packages that speak REST, test helpers never reach the binary,
// package main exports nothing, and the server build links no demo. Any
// other import is a design choice, not a rule: a small leaf every package
// may share (promreg, redact, membudget) needs no permission. It parses the
// import clauses of every non-test source file of the module (so the test
// cache notices any change), and a forbidden edge fails `go test ./...` and
// `make lint`. Each rule has a test that adds its edge to the real graph
// and fails unless the rule reports it.
package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dagu-mcp-gateway/gateway/"

// never is an edge that must not exist: from must not reach any of to,
// directly or through other packages.
type never struct {
	from string
	to   []string
	why  string
}

// forbidden are the edges that must never exist.
var forbidden = []never{
	{from: "internal/readtool", to: []string{"internal/restclient", "internal/restclient/gen", "internal/mapping", "internal/upstream"},
		why: "the tool is the contract: it sees Dagu only through its ports, never REST, the generated types or the mapping"},
	{from: "internal/restclient", to: []string{"internal/model", "internal/readtool", "internal/mapping", "internal/upstream"},
		why: "the transport knows nothing of the contract"},
	{from: "internal/mapping", to: []string{"internal/restclient", "internal/upstream", "internal/readtool"},
		why: "the mapping is pure functions from REST's types to the contract's models"},
	{from: "internal/upstream", to: []string{"internal/readtool"},
		why: "the adapter implements the tool's ports and never calls back up into the tool"},
	{from: "internal/frontdoor", to: []string{"internal/restclient", "internal/upstream", "internal/mapping", "internal/readtool"},
		why: "the front door knows nothing of Dagu or the tool: the MCP handler, readiness and checks are handed to it"},
}

// genImporters are the only packages that may import the generated client:
// the ones that speak REST.
var genImporters = []string{"internal/restclient", "internal/mapping", "internal/upstream"}

const gen = "internal/restclient/gen"

// graph is the module's import graph: each gateway package directory
// (relative, slash-separated) with the gateway packages its non-test files
// import, and the test helpers among them.
type graph struct {
	imports map[string][]string
	// helpers are the shared test helpers: packages whose non-test files
	// import "testing", and testStubs.
	helpers map[string]bool
}

// testStubs are test helpers that need no "testing" package: the stub of
// the tool's ports every fake embeds.
var testStubs = []string{"internal/readtool/readtooltest"}

func TestLayering(t *testing.T) {
	t.Parallel()
	for _, v := range violations(scan(t, repoRoot)) {
		t.Error(v)
	}
}

// violations lists every forbidden edge of g, and every rule that names a
// package g lacks.
func violations(g graph) []string {
	var out []string
	for _, r := range forbidden {
		for _, pkg := range append([]string{r.from}, r.to...) {
			if _, ok := g.imports[pkg]; !ok {
				out = append(out, fmt.Sprintf("package %s is gone; update the forbidden edges", pkg))
			}
		}
		for _, dep := range reachable(g.imports, r.from) {
			if slices.Contains(r.to, dep) {
				out = append(out, fmt.Sprintf("%s reaches %s: %s", r.from, dep, r.why))
			}
		}
	}
	for _, pkg := range genImporters {
		if _, ok := g.imports[pkg]; !ok {
			out = append(out, fmt.Sprintf("package %s is gone; update genImporters", pkg))
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(g.imports)) {
		list := g.imports[pkg]
		if slices.Contains(list, gen) && !slices.Contains(genImporters, pkg) {
			out = append(out, fmt.Sprintf("%s imports the generated client; only %v speak REST", pkg, genImporters))
		}
		for _, imp := range list {
			if g.helpers[imp] && !g.helpers[pkg] {
				out = append(out, fmt.Sprintf("%s imports the test helper %s in a non-test file; only tests may", pkg, imp))
			}
		}
	}
	return out
}

// TestEachForbiddenEdgeFails adds each forbidden edge to the real graph,
// directly and through a package in between, and each import of the
// generated client or of a test helper where it must not be: the rules
// report every one.
func TestEachForbiddenEdgeFails(t *testing.T) {
	t.Parallel()
	real := scan(t, repoRoot)
	type edge struct{ from, via, to, want string }
	var edges []edge
	for _, r := range forbidden {
		for _, to := range r.to {
			want := r.from + " reaches " + to
			edges = append(edges, edge{r.from, "", to, want}, edge{r.from, "internal/between", to, want})
		}
	}
	edges = append(edges,
		edge{"internal/config", "", gen, "internal/config imports the generated client"},
		edge{"internal/readtool", "", "internal/testkit", "readtool imports the test helper internal/testkit"},
		edge{"internal/upstream", "", "internal/fakedagu/fakedagutest", "upstream imports the test helper internal/fakedagu/fakedagutest"},
		edge{"internal/cache", "", "internal/sharedstate/redistest", "cache imports the test helper internal/sharedstate/redistest"},
		edge{"cmd/gateway", "", "tests/gwproc", "gateway imports the test helper tests/gwproc"},
		edge{"internal/trust", "", "internal/readtool/readtooltest", "trust imports the test helper internal/readtool/readtooltest"},
	)
	for _, e := range edges {
		found := violations(withEdge(real, e.from, e.via, e.to))
		if !slices.ContainsFunc(found, func(v string) bool { return strings.Contains(v, e.want) }) {
			t.Errorf("%s -> %s (via %q) is not reported: %q", e.from, e.to, e.via, found)
		}
	}
}

// withEdge is a copy of g with an import from -> to, or from -> via -> to
// when via is set.
func withEdge(g graph, from, via, to string) graph {
	imports := map[string][]string{}
	for pkg, list := range g.imports {
		imports[pkg] = slices.Clone(list)
	}
	if via == "" {
		imports[from] = append(imports[from], to)
	} else {
		imports[from] = append(imports[from], via)
		imports[via] = append(imports[via], to)
	}
	return graph{imports: imports, helpers: g.helpers}
}

// reachable lists every gateway package pkg depends on, directly or not.
func reachable(imports map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var out []string
	var visit func(string)
	visit = func(p string) {
		for _, dep := range imports[p] {
			if !seen[dep] {
				seen[dep] = true
				out = append(out, dep)
				visit(dep)
			}
		}
	}
	visit(pkg)
	return out
}

// scan reads the import graph of the gateway packages under root.
func scan(t *testing.T, root string) graph {
	t.Helper()
	g := graph{imports: map[string][]string{}, helpers: map[string]bool{}}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || name == "tools" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		own, testing, perr := fileImports(path)
		if perr != nil {
			return perr
		}
		g.imports[pkg] = appendUnique(g.imports[pkg], own...)
		if testing || slices.Contains(testStubs, pkg) {
			g.helpers[pkg] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// fileImports lists the gateway packages one file imports, and whether it
// imports "testing".
func fileImports(path string) (own []string, testing bool, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, false, err
	}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if rest, ok := strings.CutPrefix(p, module); ok {
			own = append(own, rest)
		}
		testing = testing || p == "testing"
	}
	return own, testing, nil
}

func appendUnique(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}
