// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"
)

const (
	bombWorkbookXML = `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
		`<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`
	bombWorkbookRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
		`</Relationships>`
)

// bombSheet returns a sheet of about size bytes of empty styled cells,
// which compresses to almost nothing.
func bombSheet(size int) string {
	const cell = `<c s="0"/>`
	return `<worksheet><sheetData><row r="1">` + strings.Repeat(cell, size/len(cell)) + `</row></sheetData></worksheet>`
}

// bombBook packs a minimal workbook around sheet. When lie is set, the
// zip directory declares the sheet 100 bytes long.
func bombBook(t *testing.T, sheet string, lie bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"xl/workbook.xml": bombWorkbookXML, "xl/_rels/workbook.xml.rels": bombWorkbookRels,
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.BestCompression)
	fw.Write([]byte(sheet))
	fw.Close()
	hdr := &zip.FileHeader{
		Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CRC32: crc32.ChecksumIEEE([]byte(sheet)), CompressedSize64: uint64(deflated.Len()),
		UncompressedSize64: uint64(len(sheet)),
	}
	if lie {
		hdr.UncompressedSize64 = 100
	}
	w, err := zw.CreateRaw(hdr)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(deflated.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
