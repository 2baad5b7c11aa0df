// SPDX-License-Identifier: Apache-2.0

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// TestWorkbookOverHTTP profiles a generated workbook through the whole
// gateway, and checks that --workbook-root confines reads.
func TestWorkbookOverHTTP(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	path := filepath.Join(root, "orders.xlsx")
	f := excelize.NewFile()
	for i, row := range [][]any{{"id", "amount", "customer"}, {1, 9.5, "acme"}, {2, 12, "globex"}} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken, "--workbook-root", root)
	cs := connectHTTP(t, base+"/mcp", goodToken)

	args, _ := json.Marshal(map[string]string{"target": "workbook", "path": path})
	out := callTool(t, cs, string(args))
	data, _ := out["data"].(map[string]any)
	sheets, _ := data["sheets"].([]any)
	if out["path"] != path || len(sheets) != 1 {
		t.Fatalf("workbook answer: %v", out)
	}
	sheet := sheets[0].(map[string]any)
	if sheet["row_count"] != float64(2) || sheet["range"] != "Sheet1!A1:C3" {
		t.Fatalf("sheet profile: %v", sheet)
	}
	outside, _ := json.Marshal(map[string]string{"target": "workbook", "path": filepath.Join(t.TempDir(), "other.xlsx")})
	if out := callTool(t, cs, string(outside)); out["code"] != "unauthorized" || out["field"] != "path" {
		t.Fatalf("outside the roots: %v", out)
	}
}

// TestWorkbookCausesReachTheAgent reads, through the whole gateway,
// workbooks whose profile carries a warning issue 40 added and one that is
// refused with a named cause: the agent gets the profiler's own words.
func TestWorkbookCausesReachTheAgent(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	two := func() *excelize.File {
		f := excelize.NewFile()
		t.Cleanup(func() { f.Close() })
		if _, err := f.NewSheet("Lost"); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"Sheet1", "Lost"} {
			if err := f.SetSheetRow(s, "A1", &[]any{"k", "v"}); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	defaultPassword := filepath.Join(root, "protected.xlsx")
	if err := two().SaveAs(defaultPassword, excelize.Options{Password: "VelvetSweatshop"}); err != nil {
		t.Fatal(err)
	}
	lost := filepath.Join(root, "lost.xlsx")
	if err := two().SaveAs(lost); err != nil {
		t.Fatal(err)
	}
	emptyID := regexp.MustCompile(`(name="Lost"[^>]*r:id=")[^"]*"`)
	rewriteZipPart(t, lost, "xl/workbook.xml", func(s string) string { return emptyID.ReplaceAllString(s, `${1}"`) })
	broken := filepath.Join(root, "broken.xlsx")
	if err := two().SaveAs(broken); err != nil {
		t.Fatal(err)
	}
	rewriteZipPart(t, broken, "xl/styles.xml", func(s string) string { return s[:len(s)/2] })

	base := startServe(t, fakedagu.Options{RecordedOnly: true}, "--auth-token", goodToken, "--workbook-root", root)
	cs := connectHTTP(t, base+"/mcp", goodToken)
	read := func(path string) map[string]any {
		args, _ := json.Marshal(map[string]string{"target": "workbook", "path": path})
		return callTool(t, cs, string(args))
	}
	for path, want := range map[string]string{
		defaultPassword: "workbook is encrypted with Excel's default password (VelvetSweatshop), which Excel opens without asking; the gateway opened it the same way",
		lost:            "Lost: not profiled: the workbook lists it without a relationship id (its r:id is empty); the sheet is listed by name only",
	} {
		out := read(path)
		data, _ := out["data"].(map[string]any)
		warnings, _ := data["warnings"].([]any)
		if !slices.Contains(warnings, any(want)) {
			t.Errorf("%s: answer %v lacks the warning %q", filepath.Base(path), out, want)
		}
	}
	out := read(broken)
	const want = "broken.xlsx: workbook is damaged and cannot be profiled: part xl/styles.xml: its XML ends inside a tag, comment or CDATA section"
	if out["code"] != "resource_unavailable" || out["field"] != "path" || out["message"] != want {
		t.Errorf("damaged styles: %v, want resource_unavailable on path with %q", out, want)
	}
}

// rewriteZipPart rewrites one part of the zip at path.
func rewriteZipPart(t *testing.T, path, part string, edit func(string) string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == part {
			body = []byte(edit(string(body)))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}
