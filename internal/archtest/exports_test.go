// SPDX-License-Identifier: Apache-2.0

package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// commandDirs are the directories of package main whose identifiers no one
// can import, so exporting one only misleads the reader.
var commandDirs = []string{"cmd/gateway"}

// TestCommandsExportNothing fails when a command declares an exported
// top-level identifier or an exported field. Methods are left alone: a
// type satisfies interfaces (io.Closer, error) with exported method names.
func TestCommandsExportNothing(t *testing.T) {
	t.Parallel()
	for _, dir := range commandDirs {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range exportedNames(f) {
				t.Errorf("%s: package main exports %s; unexport it or move it into an internal package", filepath.ToSlash(path), name)
			}
		}
	}
}

// exportedNames lists the exported top-level functions, types, variables,
// constants and struct fields of f.
func exportedNames(f *ast.File) []string {
	var names []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				names = append(names, exportedInSpec(spec)...)
			}
		}
	}
	return names
}

func exportedInSpec(spec ast.Spec) []string {
	var names []string
	switch s := spec.(type) {
	case *ast.TypeSpec:
		if s.Name.IsExported() {
			names = append(names, s.Name.Name)
		}
		if st, ok := s.Type.(*ast.StructType); ok {
			for _, field := range st.Fields.List {
				for _, n := range field.Names {
					if n.IsExported() {
						names = append(names, s.Name.Name+"."+n.Name)
					}
				}
			}
		}
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() {
				names = append(names, n.Name)
			}
		}
	}
	return names
}

// TestExportCheckFindsExports: the check names an exported function, type,
// field, variable and constant, and leaves methods and unexported names
// alone.
func TestExportCheckFindsExports(t *testing.T) {
	t.Parallel()
	src := `package main
func Run() {}
func run() {}
type Gateway struct{ Name string; port int }
type closer struct{}
func (closer) Close() error { return nil }
var Version, build = "dev", ""
const Limit = 1
`
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := exportedNames(f)
	want := []string{"Run", "Gateway", "Gateway.Name", "Version", "Limit"}
	if !slices.Equal(got, want) {
		t.Errorf("exported names %q, want %q", got, want)
	}
}
