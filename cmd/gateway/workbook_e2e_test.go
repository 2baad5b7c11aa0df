// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"path/filepath"
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
