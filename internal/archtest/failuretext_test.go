// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// detailWriters are the only packages whose non-test files may write a
// model.Failure's Detail: the workbook profiler words its own findings.
// Every other agent-facing text of a failure is readtool/failures.go's.
var detailWriters = []string{"internal/workbook/"}

// TestFailureTextHasOneHome: no other non-test file sets a
// model.Failure's Detail, in a literal or by assignment; a port names a
// model.FailureReason and the read tool words it.
func TestFailureTextHasOneHome(t *testing.T) {
	t.Parallel()
	for path, src := range goFiles(t, false) {
		rel := strings.TrimPrefix(path, repoRoot+"/")
		if allowedDetailWriter(rel) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if writesDetail(n) {
				t.Errorf("%s writes a model.Failure's Detail; name a model.FailureReason and word it in readtool/failures.go", rel)
				return false
			}
			return true
		})
	}
}

func allowedDetailWriter(rel string) bool {
	for _, p := range detailWriters {
		if strings.HasPrefix(rel, p) {
			return true
		}
	}
	return false
}

// writesDetail reports a Failure literal with a Detail key or an
// assignment to a .Detail field of anything named like a failure.
func writesDetail(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.CompositeLit:
		if !isFailureType(n.Type) {
			return false
		}
		for _, el := range n.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Detail" {
					return true
				}
			}
		}
	case *ast.AssignStmt:
		for _, lhs := range n.Lhs {
			if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Detail" && isFailureValue(sel.X) {
				return true
			}
		}
	}
	return false
}

// isFailureType matches model.Failure (and Failure inside package model).
func isFailureType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		return ok && pkg.Name == "model" && e.Sel.Name == "Failure"
	case *ast.Ident:
		return e.Name == "Failure"
	}
	return false
}

// isFailureValue is a variable that by the project's naming holds a
// failure (f, failure, fail...).
func isFailureValue(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "f" || strings.HasPrefix(strings.ToLower(id.Name), "fail"))
}

// TestDetailCheckFindsWriters: the check finds a Detail set in a Failure
// literal and by assignment to a failure, and not a Detail of anything
// else.
func TestDetailCheckFindsWriters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stmt   string
		writes bool
	}{
		{`_ = &model.Failure{Kind: model.FailureNotFound, Detail: "gone"}`, true},
		{`f.Detail = "gone"`, true},
		{`failure.Detail = "gone"`, true},
		{`_ = &model.Failure{Kind: model.FailureNotFound}`, false},
		{`row.Detail = "a table's own field"`, false},
		{`_ = report{Detail: "not a failure"}`, false},
	} {
		src := "package p\nfunc g() {\n" + tc.stmt + "\n}\n"
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			found = found || writesDetail(n)
			return true
		})
		if found != tc.writes {
			t.Errorf("%s: found %v, want %v", tc.stmt, found, tc.writes)
		}
	}
}
