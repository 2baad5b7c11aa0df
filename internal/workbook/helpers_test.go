// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
	"github.com/xuri/excelize/v2"
)

// book wraps an excelize file under construction with fail-fast setters.
type book struct {
	t *testing.T
	f *excelize.File
}

func newBook(t *testing.T) *book {
	t.Helper()
	f := excelize.NewFile()
	t.Cleanup(func() { f.Close() })
	return &book{t: t, f: f}
}

func (b *book) must(err error) {
	b.t.Helper()
	if err != nil {
		b.t.Fatal(err)
	}
}

// sheet creates a sheet (Sheet1 exists already).
func (b *book) sheet(name string) *book {
	b.t.Helper()
	if idx, _ := b.f.GetSheetIndex(name); idx >= 0 {
		return b
	}
	_, err := b.f.NewSheet(name)
	b.must(err)
	return b
}

// set writes values left to right from a cell.
func (b *book) set(sheet, cell string, values ...any) *book {
	b.t.Helper()
	b.must(b.f.SetSheetRow(sheet, cell, &values))
	return b
}

// style applies a number format (built-in id, or custom code when code
// is not empty) to a cell range.
func (b *book) style(sheet, from, to string, numFmt int, code string) *book {
	b.t.Helper()
	st := &excelize.Style{NumFmt: numFmt}
	if code != "" {
		st.CustomNumFmt = &code
	}
	id, err := b.f.NewStyle(st)
	b.must(err)
	b.must(b.f.SetCellStyle(sheet, from, to, id))
	return b
}

// save writes the workbook to a temporary directory.
func (b *book) save(name string) string {
	b.t.Helper()
	path := filepath.Join(b.t.TempDir(), name)
	b.must(b.f.SaveAs(path))
	return path
}

// rewritePart rewrites one part of a saved workbook, to produce content
// excelize cannot write (cached formula values, error cells).
func rewritePart(t *testing.T, path, part string, edit func(string) string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == part {
			found = true
			data = []byte(edit(string(data)))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zr.Close()
	if !found {
		t.Fatalf("no part %s", part)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// replaceOnce edits a part's text, failing when old is absent.
func replaceOnce(t *testing.T, old, new string) func(string) string {
	return func(s string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("part does not contain %q", old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func newProfiler(t *testing.T, cfg Config) *Profiler {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustProfile(t *testing.T, p *Profiler, path, password string) *model.Workbook {
	t.Helper()
	wb, err := p.Profile(context.Background(), path, password)
	if err != nil {
		t.Fatalf("Profile(%s): %v", filepath.Base(path), err)
	}
	return wb
}

func sheetNamed(t *testing.T, wb *model.Workbook, name string) model.WorkbookSheet {
	t.Helper()
	for _, s := range wb.Sheets {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no sheet %q", name)
	return model.WorkbookSheet{}
}

func columnNamed(t *testing.T, s model.WorkbookSheet, name string) model.ColumnProfile {
	t.Helper()
	for _, c := range s.Columns {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("sheet %s: no column %q", s.Name, name)
	return model.ColumnProfile{}
}

func hasWarning(wb *model.Workbook, want string) bool {
	for _, w := range wb.Warnings {
		if w == want {
			return true
		}
	}
	return false
}
