// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gatewayFlags reads cmd/gateway's source and returns every configuration
// flag with its environment variable, from the flagEnv map and the flag
// name constants, so that a new flag fails the chart check until the chart
// has a value for it.
func gatewayFlags(t *testing.T, root string) map[string]string {
	t.Helper()
	dir := filepath.Join(root, "cmd", "gateway")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	consts := map[string]string{}
	var flagEnv *ast.CompositeLit
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, ident := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					switch v := vs.Values[i].(type) {
					case *ast.BasicLit:
						if gen.Tok == token.CONST && v.Kind == token.STRING {
							consts[ident.Name], _ = strconv.Unquote(v.Value)
						}
					case *ast.CompositeLit:
						if ident.Name == "flagEnv" {
							flagEnv = v
						}
					}
				}
			}
		}
	}
	if flagEnv == nil {
		t.Fatal("cmd/gateway: no flagEnv map found")
	}
	flags := map[string]string{}
	for _, elt := range flagEnv.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, value := stringOf(kv.Key, consts), stringOf(kv.Value, consts)
		if key == "" || value == "" {
			t.Fatalf("cmd/gateway: flagEnv entry %s: cannot resolve", fset.Position(kv.Pos()))
		}
		flags[key] = value
	}
	if len(flags) < 10 {
		t.Fatalf("cmd/gateway: only %d flags found in flagEnv", len(flags))
	}
	return flags
}

// stringOf resolves a string literal or a string constant's name.
func stringOf(expr ast.Expr, consts map[string]string) string {
	switch e := expr.(type) {
	case *ast.BasicLit:
		s, _ := strconv.Unquote(e.Value)
		return s
	case *ast.Ident:
		return consts[e.Name]
	}
	return ""
}
