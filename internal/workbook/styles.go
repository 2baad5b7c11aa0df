package workbook

import (
	"bytes"
	"encoding/xml"
)

// cellFormats maps a cell's style index (its `s` attribute) to how its
// number format shows numbers.
type cellFormats []formatKind

// kind returns the format kind of a style index; an unknown index shows
// numbers as numbers.
func (f cellFormats) kind(style int) formatKind {
	if style < 0 || style >= len(f) {
		return formatNumber
	}
	return f[style]
}

type stylesXML struct {
	NumFmts []struct {
		ID   int    `xml:"numFmtId,attr"`
		Code string `xml:"formatCode,attr"`
	} `xml:"numFmts>numFmt"`
	CellXfs []struct {
		NumFmtID int `xml:"numFmtId,attr"`
	} `xml:"cellXfs>xf"`
}

// parseStyles reads the number format of every cell style. A custom
// format that reuses a built-in id overrides it, as Excel does.
func parseStyles(data []byte) (cellFormats, error) {
	var doc stylesXML
	if err := xml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, err
	}
	custom := make(map[int]formatKind, len(doc.NumFmts))
	for _, nf := range doc.NumFmts {
		custom[nf.ID] = classifyFormatCode(nf.Code)
	}
	formats := make(cellFormats, len(doc.CellXfs))
	for i, xf := range doc.CellXfs {
		if kind, ok := custom[xf.NumFmtID]; ok {
			formats[i] = kind
			continue
		}
		formats[i] = builtinFormatKinds[xf.NumFmtID]
	}
	return formats, nil
}
