// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storedSegmentMax is the longest segment stored uncompressed.
const storedSegmentMax = 4096

// segment is a piece of a part's text compressed on its own, so that a
// huge part can be assembled from a few segments repeated many times
// without ever being compressed (or held) whole.
type segment struct {
	raw        []byte
	compressed []byte
}

// newSegment compresses raw into non-final deflate blocks ending on a byte
// boundary: such block runs can be concatenated into one valid stream.
// Short text goes into a stored block, which needs no compressor.
func newSegment(tb testing.TB, raw string) segment {
	tb.Helper()
	if len(raw) <= storedSegmentMax {
		n := uint16(len(raw))
		block := append([]byte{0, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)}, raw...)
		return segment{raw: []byte(raw), compressed: block}
	}
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	fw.Write([]byte(raw))
	if err := fw.Flush(); err != nil {
		tb.Fatal(err)
	}
	return segment{raw: []byte(raw), compressed: buf.Bytes()}
}

// streamPart assembles one deflated part from segments.
type streamPart struct {
	name       string
	compressed bytes.Buffer
	crc        uint32
	size       uint64
}

func (p *streamPart) add(s segment, times int) {
	for range times {
		p.compressed.Write(s.compressed)
		p.crc = crc32.Update(p.crc, crc32.IEEETable, s.raw)
		p.size += uint64(len(s.raw))
	}
}

// writeTo closes the deflate stream with an empty final block and stores
// the part in zw.
func (p *streamPart) writeTo(tb testing.TB, zw *zip.Writer) {
	tb.Helper()
	var final bytes.Buffer
	fw, _ := flate.NewWriter(&final, flate.BestCompression)
	fw.Close()
	p.compressed.Write(final.Bytes())
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name: p.name, Method: zip.Deflate, CRC32: p.crc,
		CompressedSize64: uint64(p.compressed.Len()), UncompressedSize64: p.size,
	})
	if err != nil {
		tb.Fatal(err)
	}
	w.Write(p.compressed.Bytes())
}

// bombPackage packs the fixed parts of a one-sheet workbook (the layout of
// fuzzBookParts) around a sheet and a streamed shared strings part.
func bombPackage(tb testing.TB, sheet string, sst *streamPart) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	fixed := fuzzPackageParts(sheet, "", `<styleSheet/>`)
	delete(fixed, "xl/sharedStrings.xml")
	for _, name := range sortedKeys(fixed) {
		w, _ := zw.Create(name)
		w.Write([]byte(fixed[name]))
	}
	sst.name = "xl/sharedStrings.xml"
	sst.writeTo(tb, zw)
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// longStringsBomb is the first bomb of issue 11: a small file whose shared
// string table holds count strings of size bytes each (250 strings of
// 1 MiB: 250 MiB inflated). Its sheet has a header row of 10 of them and
// 24 data rows over the rest, 20 distinct values per column, so that
// headers, samples and value lists would all repeat the long strings.
func longStringsBomb(tb testing.TB, count, size int) []byte {
	tb.Helper()
	const columns, dataRows = 10, 24
	body := newSegment(tb, strings.Repeat("a", size))
	sst := &streamPart{}
	sst.add(newSegment(tb, fmt.Sprintf(`<sst count="%d" uniqueCount="%d">`, count, count)), 1)
	for i := range count {
		sst.add(newSegment(tb, fmt.Sprintf(`<si><t>%04d `, i)), 1)
		sst.add(body, 1)
		sst.add(newSegment(tb, `</t></si>`), 1)
	}
	sst.add(newSegment(tb, `</sst>`), 1)
	var sheet strings.Builder
	sheet.WriteString(`<worksheet><sheetData>`)
	for r := 1; r <= dataRows+1; r++ {
		fmt.Fprintf(&sheet, `<row r="%d">`, r)
		for c := range columns {
			idx := c
			if r > 1 {
				idx = columns + (c*dataRows+(r-2)%20)%(count-columns)
			}
			fmt.Fprintf(&sheet, `<c r="%s" t="s"><v>%d</v></c>`, cellName(c+1, r), idx)
		}
		sheet.WriteString(`</row>`)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	return bombPackage(tb, sheet.String(), sst)
}

// manyStringsBomb is the third bomb of issue 11: a shared string table of
// count one-character strings (14 million: 238 MB of XML in a file of a
// few hundred KiB) under a two-row sheet.
func manyStringsBomb(tb testing.TB, count int) []byte {
	tb.Helper()
	const perUnit = 100_000
	sst := &streamPart{}
	sst.add(newSegment(tb, `<sst>`), 1)
	sst.add(newSegment(tb, strings.Repeat(`<si><t>a</t></si>`, perUnit)), count/perUnit)
	sst.add(newSegment(tb, strings.Repeat(`<si><t>b</t></si>`, count%perUnit)), 1)
	sst.add(newSegment(tb, `</sst>`), 1)
	sheet := `<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
		`<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>7</v></c></row></sheetData></worksheet>`
	return bombPackage(tb, sheet, sst)
}

// writeBomb stores a generated workbook in a temporary directory.
func writeBomb(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}
