// SPDX-License-Identifier: Apache-2.0

package workbook

import "io"

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

// costCustomFormat is what one custom number format costs in the map of
// them while styles are read.
const costCustomFormat = 48

// stylesReader collects, token by token, the custom number formats and
// the number format id of every cell style (cellXfs), within the read's
// budget.
type stylesReader struct {
	mem       charge // released once the formats are built
	custom    map[int]formatKind
	ids       []int32
	inNumFmts bool
	inCellXfs bool
}

// readFormats reads the number format of every cell style from the
// styles part; without one every cell shows numbers. A custom format that
// reuses a built-in id overrides it, as Excel does. The result is
// reserved for the read.
func (c *container) readFormats(part string) (cellFormats, error) {
	if !c.hasPart(part) {
		return nil, nil
	}
	rc, err := c.openPart(part, maxMetadataPartBytes)
	if err != nil {
		return nil, c.readFailure(part, err)
	}
	defer rc.Close()
	formats, err := parseStyles(rc, c.mem)
	if err != nil {
		return nil, c.readFailure(part, err)
	}
	return formats, nil
}

// parseStyles reads a styles part within the budget mem (nil: unlimited).
func parseStyles(r io.Reader, mem *memoryBudget) (cellFormats, error) {
	sr := &stylesReader{mem: charge{mem: mem}, custom: make(map[int]formatKind)}
	defer sr.mem.releaseAll()
	if err := scanTokens(r, mem, sr.visit); err != nil {
		return nil, err
	}
	if err := mem.reserve(int64(len(sr.ids))); err != nil {
		return nil, err
	}
	formats := make(cellFormats, len(sr.ids))
	for i, id := range sr.ids {
		if kind, ok := sr.custom[int(id)]; ok {
			formats[i] = kind
			continue
		}
		formats[i] = builtinFormatKinds[int(id)]
	}
	return formats, nil
}

func (sr *stylesReader) visit(sc *xmlScanner) (bool, error) {
	if sc.kind == tokenEnd {
		switch string(sc.name) {
		case "numFmts":
			sr.inNumFmts = false
		case "cellXfs":
			sr.inCellXfs = false
		}
		return false, nil
	}
	if sc.kind != tokenStart {
		return false, nil
	}
	switch string(sc.name) {
	case "numFmts":
		sr.inNumFmts = !sc.selfClosing
	case "cellXfs":
		sr.inCellXfs = !sc.selfClosing
	case "numFmt":
		if sr.inNumFmts {
			return false, sr.addCustom(sc.attrs)
		}
	case "xf":
		if sr.inCellXfs {
			return false, sr.addStyle(sc.attrs)
		}
	}
	return false, nil
}

func (sr *stylesReader) addCustom(attrs []byte) error {
	id := formatID(attrs)
	if _, ok := sr.custom[id]; !ok {
		if err := sr.mem.add(costCustomFormat); err != nil {
			return err
		}
	}
	sr.custom[id] = classifyFormatCode(attrText(attrs, "formatCode"))
	return nil
}

func (sr *stylesReader) addStyle(attrs []byte) error {
	ids, err := growSlice(&sr.mem, sr.ids, 1, 4)
	if err != nil {
		return err
	}
	sr.ids = append(ids, int32(formatID(attrs)))
	return nil
}

// formatID reads a numFmtId attribute; a missing or unreadable one is 0,
// the General format.
func formatID(attrs []byte) int {
	value, ok := attrValue(attrs, "numFmtId")
	if !ok {
		return 0
	}
	id, err := parseSmallInt(value)
	if err != nil {
		return 0
	}
	return id
}
