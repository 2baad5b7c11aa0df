// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"strings"
	"testing"
)

// zipEntry is one entry of a generated package, in zip order. raw, when
// set, is written as the entry's compressed bytes under method, with the
// checksum and size of body.
type zipEntry struct {
	name, body string
	raw        []byte
	method     uint16
}

// testPackage is a package's entries in zip order.
type testPackage []zipEntry

const (
	relsNS     = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	relTypeDoc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// sheetsPackage is a package of the named sheets, each with the given
// XML, listed in the workbook with relationship ids rId1, rId2... and
// parts xl/worksheets/sheetN.xml, plus styles and shared strings.
func sheetsPackage(sheets ...[2]string) testPackage {
	var list, rels strings.Builder
	p := testPackage{{name: "_rels/.rels", body: `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` +
		relTypeDoc + `officeDocument" Target="xl/workbook.xml"/></Relationships>`}}
	for i, s := range sheets {
		fmt.Fprintf(&list, `<sheet name="%s" sheetId="%d" r:id="rId%d"/>`, s[0], i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i+1, relTypeDoc, i+1)
		p = append(p, zipEntry{name: fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1), body: s[1]})
	}
	return append(p,
		zipEntry{name: "xl/workbook.xml", body: `<workbook xmlns="` + nsMain + `" xmlns:r="` + nsRels + `"><sheets>` +
			list.String() + `</sheets></workbook>`},
		zipEntry{name: "xl/_rels/workbook.xml.rels", body: `<Relationships ` + relsNS + `>` + rels.String() +
			`<Relationship Id="rIdS" Type="` + relTypeDoc + `styles" Target="styles.xml"/>` +
			`<Relationship Id="rIdT" Type="` + relTypeDoc + `sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		zipEntry{name: "xl/styles.xml", body: `<styleSheet xmlns="` + nsMain + `"><cellXfs count="1"><xf numFmtId="0"/></cellXfs></styleSheet>`},
		zipEntry{name: "xl/sharedStrings.xml", body: `<sst xmlns="` + nsMain + `"></sst>`},
	)
}

const (
	nsMain = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsRels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
)

// inlineRows writes a sheet whose rows hold inline strings and numbers:
// each row is a list of cells, a string cell written as text and a
// number as its digits; "#..." is an error cell.
func inlineRows(rows ...[]any) string {
	var b strings.Builder
	b.WriteString(`<worksheet xmlns="` + nsMain + `"><sheetData>`)
	for r, row := range rows {
		fmt.Fprintf(&b, `<row r="%d">`, r+1)
		for c, v := range row {
			ref := cellName(c+1, r+1)
			switch v := v.(type) {
			case nil:
			case string:
				if strings.HasPrefix(v, "#") {
					fmt.Fprintf(&b, `<c r="%s" t="e"><v>%s</v></c>`, ref, v)
				} else {
					fmt.Fprintf(&b, `<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, v)
				}
			default:
				fmt.Fprintf(&b, `<c r="%s"><v>%v</v></c>`, ref, v)
			}
		}
		b.WriteString(`</row>`)
	}
	b.WriteString(`</sheetData></worksheet>`)
	return b.String()
}

// with replaces the entry of that name, or appends it.
func (p testPackage) with(e zipEntry) testPackage {
	out := append(testPackage{}, p...)
	for i := range out {
		if out[i].name == e.name {
			out[i] = e
			return out
		}
	}
	return append(out, e)
}

// edit rewrites the body of the entry of that name.
func (p testPackage) edit(t *testing.T, name string, edit func(string) string) testPackage {
	t.Helper()
	out := append(testPackage{}, p...)
	for i := range out {
		if out[i].name == name {
			out[i].body = edit(out[i].body)
			return out
		}
	}
	t.Fatalf("no entry %s", name)
	return nil
}

// bytes writes the package as a zip.
func (p testPackage) bytes(t *testing.T) []byte {
	t.Helper()
	return p.bytesTB(t)
}

// bytesTB is bytes for tests and benchmarks.
func (p testPackage) bytesTB(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range p {
		if err := writeEntry(zw, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeEntry(zw *zip.Writer, e zipEntry) error {
	if e.raw == nil {
		w, err := zw.Create(e.name)
		if err != nil {
			return err
		}
		_, err = w.Write([]byte(e.body))
		return err
	}
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name: e.name, Method: e.method, CRC32: crc32.ChecksumIEEE([]byte(e.body)),
		CompressedSize64: uint64(len(e.raw)), UncompressedSize64: uint64(len(e.body)),
	})
	if err != nil {
		return err
	}
	_, err = w.Write(e.raw)
	return err
}

// write saves the package in a temporary directory.
func (p testPackage) write(t *testing.T, name string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), filepath.Base(name), p.bytes(t))
}
