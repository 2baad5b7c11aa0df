// SPDX-License-Identifier: Apache-2.0

// Package archtest enforces the gateway's package layering: cmd -> readtool
// -> ports <- (portcache's layer) <- upstream -> (restclient, mapping,
// readcache), with the command's
// front door, configuration and telemetry beside it (frontdoor -> config <-
// telemetry), none of which knows REST, the generated client, the mapping or
// the contract. Only tests may import the shared test helpers
// (internal/testkit). It parses the import clauses of every non-test source file
// of the module (so the test cache notices any change), and a wrong import
// fails `go test ./...` and `make lint`. It also checks that package main
// exports nothing.
package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dagu-mcp-gateway/gateway/"

// rule says which gateway packages a package may reach.
type rule struct {
	pkg string
	// direct lists the only gateway packages pkg may import itself; nil
	// means any package not in forbidden.
	direct []string
	// forbidden lists gateway packages pkg must not reach even through
	// its dependencies.
	forbidden []string
	// indirect lists gateway packages pkg may reach only through another
	// package, never import itself.
	indirect []string
}

var rules = []rule{
	{pkg: "internal/model", direct: []string{}},
	{pkg: "internal/reqctx", direct: []string{}},
	{pkg: "internal/cache", direct: []string{}},
	// Shared state knows nothing of Dagu or the contract: it stores bytes
	// under keys its callers build.
	{pkg: "internal/sharedstate", direct: []string{"internal/redact", "internal/promreg"}},
	// Redaction helpers the leaves share: a leaf itself.
	{pkg: "internal/redact", direct: []string{}},
	// The one memory budget the front door, the tool and the REST client
	// share: a leaf.
	{pkg: "internal/membudget", direct: []string{"internal/promreg"}},
	// How a Prometheus collector is registered, shared or owned: a leaf.
	{pkg: "internal/promreg", direct: []string{}},
	// The bound on unverified callers' log lines the front door's access
	// log and the tool's read log share: a leaf.
	{pkg: "internal/logsample", direct: []string{}},
	{pkg: "internal/restclient/gen", direct: []string{}},
	// The transport knows nothing of the contract.
	// The fair share of a process-wide cap among the Dagu servers one
	// gateway fronts (REST slots, checks of unknown keys): a leaf.
	{pkg: "internal/fairshare", direct: []string{}},
	{pkg: "internal/restclient", direct: []string{"internal/restclient/gen", "internal/reqctx", "internal/membudget", "internal/fairshare", "internal/promreg"},
		forbidden: []string{"internal/model", "internal/mapping", "internal/cache", "internal/readtool", "internal/upstream"}},
	{pkg: "internal/mapping", direct: []string{"internal/model", "internal/restclient/gen"}},
	// The tool sees Dagu only through its ports.
	{pkg: "internal/readtool", direct: []string{"internal/model", "internal/reqctx", "internal/membudget", "internal/logsample", "internal/promreg"},
		forbidden: []string{"internal/restclient", "internal/restclient/gen", "internal/mapping", "internal/upstream"}},
	// Upstream decides the REST calls; every cache it consults (run
	// parts, lists, latest hints, roles) and the shared level behind them
	// are package readcache's.
	{pkg: "internal/upstream", forbidden: []string{"internal/readtool"}, indirect: []string{"internal/cache", "internal/sharedstate"}},
	// The read cache keeps the DAG answers for the layer around the ports
	// and the REST parts of runs and lists for upstream's plans: it knows
	// REST's types and the contract's models, never the tool or the plans.
	{pkg: "internal/readcache", direct: []string{"internal/cache", "internal/model", "internal/sharedstate",
		"internal/restclient", "internal/restclient/gen", "internal/mapping"},
		forbidden: []string{"internal/readtool", "internal/upstream"}},
	// The layer around the tool's ports embeds the inner port and answers
	// the reads it caches from readcache; it never knows the REST calls.
	{pkg: "internal/portcache", direct: []string{"internal/readtool", "internal/model", "internal/readcache"},
		forbidden: []string{"internal/upstream"}},
	// The MCP server around the tool registers it and times every method;
	// it knows the contract's codes only through readtool.
	{pkg: "internal/mcpserver", direct: []string{"internal/readtool", "internal/model", "internal/promreg"},
		forbidden: []string{"internal/restclient", "internal/upstream", "internal/frontdoor"}},
	{pkg: "internal/workbook", direct: []string{"internal/model"}},
	// Configuration is a leaf: what it needs of other packages is handed
	// to it, and the command's tests check the defaults it repeats.
	{pkg: "internal/config", direct: []string{"internal/redact"}},
	// The front door and telemetry know the configuration formats (token
	// file, listen addresses, log levels) and nothing of Dagu or the tool.
	{pkg: "internal/frontdoor", direct: []string{"internal/config", "internal/redact", "internal/reqctx", "internal/membudget", "internal/logsample"}},
	{pkg: "internal/telemetry", direct: []string{"internal/config", "internal/reqctx"}},
	// The instances file and its pool know the configuration's URL rules
	// and nothing of Dagu's API, the tool or the front door.
	{pkg: "internal/instances", direct: []string{"internal/config"}},
	// The set of instances the front door serves knows the front door's
	// Endpoints, the instances and the metrics; the wiring of each
	// instance is handed to it.
	{pkg: "internal/endpoints", direct: []string{"internal/frontdoor", "internal/instances", "internal/reqctx", "internal/telemetry"}},
	// Doctor reports what upstream and restclient detect; the tool is not
	// its concern.
	{pkg: "internal/doctor", forbidden: []string{"internal/readtool", "internal/frontdoor"}},
	// What `demo` adds to a served gateway: the recorded fake Dagu and
	// the banner; nothing of the tool or of Dagu's API.
	{pkg: "internal/demo", direct: []string{"internal/config", "internal/fakedagu"}},
	{pkg: "internal/reference", direct: []string{"internal/cache", "internal/model"}},
	// The trust decision is handed its check of a credential; it knows
	// nothing of Dagu's API. Its verdicts and buckets live in
	// internal/cache.
	{pkg: "internal/trust", direct: []string{"internal/cache", "internal/redact", "internal/reqctx", "internal/fairshare", "internal/promreg"}},
	// The shared test helpers stand on the standard library alone; the
	// ports' shared stub on the contract's models.
	{pkg: "internal/testkit", direct: []string{}},
	{pkg: "internal/readtool/readtooltest", direct: []string{"internal/model"}},
	// The built-gateway runner of the tagged suites builds cmd/gateway as a
	// separate binary; it imports none of it.
	{pkg: "tests/gwproc", direct: []string{"internal/testkit"}},
}

// testOnly are the packages of shared test helpers: only _test.go files
// (and the other helpers) may import them, so a fake clock, a stub port or
// the built-gateway runner never reaches the binary.
var testOnly = []string{"internal/testkit", "internal/readtool/readtooltest", "tests/gwproc"}

// genImporters are the only packages that may import the generated client.
var genImporters = []string{"internal/restclient", "internal/mapping", "internal/upstream", "internal/readcache"}

func TestLayering(t *testing.T) {
	imports := importGraph(t, "../..")
	for _, r := range rules {
		if _, ok := imports[r.pkg]; !ok {
			t.Errorf("package %s is gone; update the layering rules", r.pkg)
			continue
		}
		for _, imp := range imports[r.pkg] {
			if r.direct != nil && !slices.Contains(r.direct, imp) {
				t.Errorf("%s imports %s; it may import only %v", r.pkg, imp, r.direct)
			}
			if slices.Contains(r.indirect, imp) {
				t.Errorf("%s imports %s itself; it may reach it only through another package", r.pkg, imp)
			}
		}
		for _, dep := range reachable(imports, r.pkg) {
			if slices.Contains(r.forbidden, dep) {
				t.Errorf("%s depends on %s", r.pkg, dep)
			}
		}
	}
	for pkg, list := range imports {
		if slices.Contains(list, "internal/restclient/gen") && !slices.Contains(genImporters, pkg) {
			t.Errorf("%s imports the generated client; only %v may", pkg, genImporters)
		}
		for _, helper := range testOnly {
			if slices.Contains(list, helper) && !slices.Contains(testOnly, pkg) {
				t.Errorf("%s imports %s in a non-test file; only tests may", pkg, helper)
			}
		}
	}
}

// reachable lists every gateway package pkg depends on, directly or not.
func reachable(graph map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var out []string
	var visit func(string)
	visit = func(p string) {
		for _, dep := range graph[p] {
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

// importGraph maps each gateway package directory under root (relative,
// slash-separated) to the gateway packages its non-test files import.
func importGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
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
		own, perr := ownImports(path)
		if perr != nil {
			return perr
		}
		graph[pkg] = appendUnique(graph[pkg], own...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// ownImports lists the gateway packages one file imports.
func ownImports(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var own []string
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if rest, ok := strings.CutPrefix(p, module); ok {
			own = append(own, rest)
		}
	}
	return own, nil
}

func appendUnique(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}
