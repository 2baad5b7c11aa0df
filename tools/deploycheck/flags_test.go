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

// setting is what the deployment checks need of one row of the gateway's
// settings table (internal/config/settings.go).
type setting struct {
	flag, env, chart string
	// secret rows are deployed in their file form only.
	secret bool
}

// gatewaySettings reads the gateway's settings table from the source of
// internal/config and returns every row with its flag, environment variable
// and chart value, so that a new setting fails the chart check until the
// chart renders it. The table is read from source rather than imported to
// keep the gateway's module out of this module's build.
func gatewaySettings(t *testing.T, root string) []setting {
	t.Helper()
	dir := filepath.Join(root, "internal", "config")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	consts := map[string]string{}
	var table *ast.CompositeLit
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		if lit := collectValues(f, consts, "settings"); lit != nil {
			table = lit
		}
	}
	if table == nil {
		t.Fatal("internal/config: no settings table found")
	}
	var rows []setting
	for _, elt := range table.Elts {
		row, ok := elt.(*ast.CompositeLit)
		if !ok {
			t.Fatalf("internal/config: settings entry %s is not a literal", fset.Position(elt.Pos()))
		}
		s := settingOf(row, consts)
		if s.flag == "" || s.env == "" {
			t.Fatalf("internal/config: settings entry %s: cannot resolve its Flag and Env", fset.Position(row.Pos()))
		}
		rows = append(rows, s)
	}
	if len(rows) < 10 {
		t.Fatalf("internal/config: only %d settings found", len(rows))
	}
	return rows
}

// collectValues records the string constants of f in consts and returns
// the composite literal assigned to the variable named table, if f has it.
func collectValues(f *ast.File, consts map[string]string, table string) *ast.CompositeLit {
	var found *ast.CompositeLit
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
					if ident.Name == table {
						found = v
					}
				}
			}
		}
	}
	return found
}

// settingOf reads the Flag, Env, Chart and Secret fields of one row.
func settingOf(row *ast.CompositeLit, consts map[string]string) setting {
	var s setting
	for _, elt := range row.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Flag":
			s.flag = stringOf(kv.Value, consts)
		case "Env":
			s.env = stringOf(kv.Value, consts)
		case "Chart":
			s.chart = stringOf(kv.Value, consts)
		case "Secret":
			ident, _ := kv.Value.(*ast.Ident)
			s.secret = ident != nil && ident.Name == "true"
		}
	}
	return s
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
