// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// fuzzBookParts packs the three parts a fuzzer varies into an otherwise
// valid package.
func fuzzBookParts(sheet, sharedStrings, styles string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	parts := fuzzPackageParts(sheet, sharedStrings, styles)
	for _, name := range sortedKeys(parts) {
		w, _ := zw.Create(name)
		w.Write([]byte(parts[name]))
	}
	zw.Close()
	return buf.Bytes()
}

// fuzzPackageParts returns the parts of a one-sheet package by name.
func fuzzPackageParts(sheet, sharedStrings, styles string) map[string]string {
	return map[string]string{
		"_rels/.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml": bombWorkbookXML,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/>` +
			`</Relationships>`,
		"xl/worksheets/sheet1.xml": sheet,
		"xl/sharedStrings.xml":     sharedStrings,
		"xl/styles.xml":            styles,
	}
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// checkProfileInvariants holds for every profile the package returns.
func checkProfileInvariants(t *testing.T, wb *model.Workbook, err error) {
	t.Helper()
	if err != nil {
		if _, ok := AsError(err); !ok {
			t.Fatalf("error %v (%T) is not an *Error", err, err)
		}
		return
	}
	if _, err := json.Marshal(wb); err != nil {
		t.Fatalf("profile does not serialise: %v", err)
	}
	for _, s := range wb.Sheets {
		if len(s.Headers) != len(s.Types) || len(s.Headers) != len(s.Columns) || len(s.Sample) > maxSampleRows {
			t.Fatalf("sheet %q: %d headers, %d types, %d columns, %d samples",
				s.Name, len(s.Headers), len(s.Types), len(s.Columns), len(s.Sample))
		}
		for _, c := range s.Columns {
			if c.Filled < 0 || c.Blank < 0 || c.Filled+c.Blank != s.Columns[0].Filled+s.Columns[0].Blank {
				t.Fatalf("sheet %q column %q: filled %d blank %d", s.Name, c.Name, c.Filled, c.Blank)
			}
		}
	}
}

func profileBytes(t *testing.T, data []byte) (*model.Workbook, error) {
	path := filepath.Join(t.TempDir(), "fuzz.xlsx")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{MaxRows: 50, MaxUnzipBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return p.Profile(context.Background(), path, "pw")
}

// FuzzProfileFile profiles arbitrary file bytes: damaged zips, truncated
// packages, compound files.
func FuzzProfileFile(f *testing.F) {
	valid := fuzzBookParts(`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>2</v></c></row></sheetData></worksheet>`,
		`<sst><si><t>h</t></si></sst>`, `<styleSheet/>`)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(zipMagic)
	f.Add(append(append([]byte{}, oleMagic...), make([]byte, 1024)...))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		wb, err := profileBytes(t, data)
		checkProfileInvariants(t, wb, err)
	})
}

// FuzzProfileParts profiles valid packages around arbitrary sheet, shared
// string and style parts.
func FuzzProfileParts(f *testing.F) {
	f.Add(`<worksheet><sheetData><row r="2"><c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>1</v></c></row>`+
		`<row r="3" hidden="1"><c r="B3" s="1"><v>46296.5</v></c><c r="C3" t="e"><v>#N/A</v></c><c r="D3" t="b"><v>1</v></c></row>`+
		`<row><c t="inlineStr"><is><t>x</t></is></c><c t="d"><v>2026-10-01</v></c><c t="str"><f>A1</f></c></row>`+
		`</sheetData><tableParts><tablePart r:id="rId9"/></tableParts></worksheet>`,
		`<sst><si><t>a</t></si><si><r><t>b</t></r></si></sst>`,
		`<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`)
	f.Add(`<sheetData><row r="1048577"/></sheetData>`, ``, ``)
	f.Add(`<sheetData><row><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row><row><c><v>x</v></c></row></sheetData>`, `<sst>`, `<`)
	f.Add(`<sheetData><row><c t="s"><v>7</v></c><c t="s"><v>-1</v></c></row></sheetData>`, `<sst/>`, `<styleSheet/>`)
	f.Fuzz(func(t *testing.T, sheet, sharedStrings, styles string) {
		wb, err := profileBytes(t, fuzzBookParts(sheet, sharedStrings, styles))
		checkProfileInvariants(t, wb, err)
	})
}

// FuzzProfileBudget profiles arbitrary parts under a small memory budget:
// the read never reserves past its limit, and a failure is an *Error.
func FuzzProfileBudget(f *testing.F) {
	f.Add(`<worksheet><sheetData><row r="1"><c t="s"><v>0</v></c><c t="inlineStr"><is><t>x</t></is></c></row>`+
		`<row r="2"><c><v>1</v></c><c t="s"><v>1</v></c></row></sheetData></worksheet>`,
		`<sst><si><t>h</t></si><si><t>`+strings.Repeat("long ", 100)+`</t></si></sst>`,
		`<styleSheet><cellXfs><xf numFmtId="14"/></cellXfs></styleSheet>`, uint16(512))
	f.Add(`<sheetData>`+strings.Repeat(`<row><c t="inlineStr"><is><t>`+strings.Repeat("w", 300)+`</t></is></c><c><v>2</v></c></row>`, 50)+`</sheetData>`,
		`<sst/>`, `<styleSheet/>`, uint16(300))
	f.Add(`<sheetData/>`, `<sst>`+strings.Repeat(`<si><t>a</t></si>`, 20000)+`</sst>`, ``, uint16(400))
	f.Fuzz(func(t *testing.T, sheet, sharedStrings, styles string, limitKiB uint16) {
		path := filepath.Join(t.TempDir(), "fuzz.xlsx")
		if err := os.WriteFile(path, fuzzBookParts(sheet, sharedStrings, styles), 0o600); err != nil {
			t.Fatal(err)
		}
		limit := int64(limitKiB)<<10 + 1
		p, err := New(Config{MaxRows: 50, MaxUnzipBytes: 4 << 20, MaxMemory: limit})
		if err != nil {
			t.Fatal(err)
		}
		out := readWithBudget(t, p, path)
		if out.err != nil {
			if _, ok := AsError(out.err); !ok {
				t.Fatalf("error %v (%T) is not an *Error", out.err, out.err)
			}
			return
		}
		if int64(out.answer) > 8*limit+64<<10 {
			t.Fatalf("answer of %d bytes under a budget of %d", out.answer, limit)
		}
	})
}

// maxFuzzExtraParts bounds the extra parts a package fuzz input adds.
const maxFuzzExtraParts = 8

// fuzzPackage packs a whole package from a fuzz input: its workbook part
// and relationships, two sheets, the shared strings, and extra parts
// (names separated by "|", each holding the second sheet's XML) that may
// collide with the others in all but case.
func fuzzPackage(workbook, rels, sheet1, sheet2, sharedStrings, extra string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		if w, err := zw.Create(name); err == nil {
			w.Write([]byte(body))
		}
	}
	add("_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	add("xl/workbook.xml", workbook)
	add("xl/_rels/workbook.xml.rels", rels)
	add("xl/worksheets/sheet1.xml", sheet1)
	add("xl/worksheets/sheet2.xml", sheet2)
	add("xl/sharedStrings.xml", sharedStrings)
	for i, name := range strings.Split(extra, "|") {
		if name != "" && i < maxFuzzExtraParts {
			add(name, sheet2)
		}
	}
	zw.Close()
	return buf.Bytes()
}

// fuzzWorkbookRels names both sheets, the shared strings and styles.
const fuzzWorkbookRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
	`</Relationships>`

// fuzzTwoSheets is a workbook part of two sheets, around what comes
// before and after its sheet list.
func fuzzTwoSheets(before, after string) string {
	return `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main">` + before +
		`<sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" r:id="rId2"/></sheets>` + after + `</workbook>`
}

// FuzzProfilePackage profiles whole packages built from arbitrary parts:
// the workbook part (date system, sheet list, defined names), its
// relationships, two sheets, the shared strings and parts whose names
// collide in all but case. Every read ends within its deadline, and its
// answer is a profile that holds the invariants or an *Error. The seeds
// are the shapes of issue 40; they run in every `go test`.
func FuzzProfilePackage(f *testing.F) {
	wide := `<worksheet><sheetData><row r="1">` + strings.Repeat(`<c t="inlineStr"><is><t>Amount</t></is></c>`, 2000) +
		`</row><row r="2"><c t="e"><v>#N/A</v></c><c><v>1</v></c></row></sheetData></worksheet>`
	data := `<worksheet><sheetData><row r="1"><c t="s"><v>0</v></c><c t="e"><v>#N/A</v></c><c t="inlineStr"><is><t>b</t></is></c></row>` +
		`<row r="2"><c s="1"><v>46296</v></c><c t="e"><v>#DIV/0!</v></c><c t="d"><v>2026-10-01</v></c></row></sheetData></worksheet>`
	sst := `<!DOCTYPE sst [<!ENTITY e "v>w">]><sst><si><t>&e;</t></si></sst>`
	f.Add(fuzzTwoSheets(`<workbookPr date1904="1"/>`, `<extLst><ext uri="{x}"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst>`),
		fuzzWorkbookRels, data, wide, sst, "")
	f.Add(fuzzTwoSheets(`<x15:workbookPr date1904="1"/>`, `<definedNames><definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1</definedName>`+
		`<definedName name="h" hidden="1">1</definedName></definedNames>`), fuzzWorkbookRels, data, data, sst, "xl/worksheets/Sheet1.xml|XL/WORKSHEETS/SHEET2.XML")
	f.Add(strings.Replace(fuzzTwoSheets("", ""), `r:id="rId1"`, `r:id=""`, 1), fuzzWorkbookRels, data, data, `<sst/>`, "xl/worksheets/sheet2.xml")
	f.Add(fuzzTwoSheets("", ""), strings.Replace(fuzzWorkbookRels, "sheet1.xml", "SHEET1.XML", 1), `<worksheet><sheetData><row><c r="B1"/><c r="A1"/></row>`,
		data, `<sst><si><t>x`, "xl/worksheets/sheet1.xml|xl/worksheets/Sheet1.xml")
	f.Add(`<workbook xmlns:x="http://purl.oclc.org/ooxml/spreadsheetml/main"><x:workbookPr date1904="true"/><x:sheets><x:sheet name="A" r:id="rId1"/></x:sheets></workbook>`,
		fuzzWorkbookRels, data, ``, `<sst><si><t>h</t></si></sst>`, "")
	f.Fuzz(func(t *testing.T, workbook, rels, sheet1, sheet2, sharedStrings, extra string) {
		path := filepath.Join(t.TempDir(), "fuzz.xlsx")
		if err := os.WriteFile(path, fuzzPackage(workbook, rels, sheet1, sheet2, sharedStrings, extra), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := New(Config{MaxRows: 50, MaxUnzipBytes: 4 << 20})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		wb, err := p.Profile(ctx, path, "")
		checkProfileInvariants(t, wb, err)
	})
}
