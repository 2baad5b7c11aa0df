// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
	"io"
	"unsafe"
)

// Excel's grid bounds.
const (
	maxSheetRows    = 1 << 20 // 1,048,576
	maxSheetColumns = 1 << 14 // 16,384 (XFD)
	// maxRowValueBytes bounds the cell text of one row.
	maxRowValueBytes = 32 << 20
	// maxTableParts bounds the table parts one sheet lists.
	maxTableParts = 1000
)

const rawCellSize = int64(unsafe.Sizeof(rawCell{}))

// tableIDCost is what one kept table relationship id costs beside its
// text: its string header and its entry in the set of seen ids.
const tableIDCost = 64

// Cell type codes, from the `t` attribute of a cell.
const (
	cellNumber       byte = 'n' // t="n" or absent
	cellShared       byte = 's' // t="s": index into the shared strings
	cellFormulaStr   byte = 'f' // t="str": a formula's text result
	cellInlineString byte = 'i' // t="inlineStr"
	cellBoolean      byte = 'b' // t="b"
	cellError        byte = 'e' // t="e"
	cellISODate      byte = 'd' // t="d": ISO 8601 text
)

// rawCell is one cell as stored: its type code, style and raw text.
type rawCell struct {
	col        int // 1-based
	typ        byte
	style      int
	formula    bool
	start, end int // the cell's text within rawRow.arena
}

// rawRow is one row of a worksheet, with only the cells that carry text
// (a cell holding nothing, or only a style, is left out).
type rawRow struct {
	num    int // 1-based
	hidden bool
	cells  []rawCell
	arena  []byte
	// formulasWithoutValue counts formula cells with no cached value.
	formulasWithoutValue int
}

func (r *rawRow) text(c *rawCell) []byte { return r.arena[c.start:c.end] }

// sheetReader streams the rows of a worksheet part, then the relationship
// ids of its table parts. The row's buffers are reserved against the
// read's memory budget and released by close; the ids stay reserved for
// the read, which reads the tables after the sheet.
type sheetReader struct {
	sc          *xmlScanner
	mem         charge
	inSheetData bool
	done        bool
	row         rawRow
	cell        rawCell
	lastCol     int
	inCell      bool
	inValue     bool // inside <v>, or <t> of an inline string
	inInline    bool
	phonetic    int
	tableIDs    []string
	seenIDs     map[string]bool
}

// newSheetReader streams the worksheet r within the budget mem (nil:
// unlimited).
func newSheetReader(r io.Reader, mem *memoryBudget) *sheetReader {
	return &sheetReader{sc: newXMLScanner(r, mem), mem: charge{mem: mem}}
}

// close releases the reader's buffers.
func (sr *sheetReader) close() {
	sr.sc.close()
	sr.row.cells, sr.row.arena = nil, nil
	sr.mem.releaseAll()
}

// next returns the next row, or nil after the last one. The row is reused
// by the following call.
func (sr *sheetReader) next() (*rawRow, error) {
	if sr.done {
		return nil, nil
	}
	for {
		if err := sr.sc.next(); err != nil {
			if errors.Is(err, io.EOF) {
				sr.done = true
				return nil, nil
			}
			return nil, err
		}
		row, err := sr.handle()
		if err != nil || row != nil {
			return row, err
		}
		if sr.done {
			return nil, nil
		}
		sr.sc.wantText = sr.inValue
	}
}

// handle processes the current token; it returns a row when one ends.
func (sr *sheetReader) handle() (*rawRow, error) {
	sc := sr.sc
	switch sc.kind {
	case tokenStart:
		return sr.handleStart()
	case tokenEnd:
		return sr.handleEnd()
	case tokenText, tokenCDATA:
		if sr.inValue {
			return nil, sr.addText(sc.text, sc.kind == tokenCDATA)
		}
	}
	return nil, nil
}

// addText decodes cell text into the row's arena, which grows within the
// budget (decoding never lengthens text).
func (sr *sheetReader) addText(text []byte, literal bool) error {
	if len(sr.row.arena)+len(text) > maxRowValueBytes {
		return badFormat("row %d: its cells hold more than %s of text", sr.row.num, formatBytes(maxRowValueBytes))
	}
	arena, err := growSlice(&sr.mem, sr.row.arena, len(text), 1)
	if err != nil {
		return err
	}
	sr.row.arena = appendText(arena, text, literal)
	return nil
}

func (sr *sheetReader) handleStart() (*rawRow, error) {
	sc := sr.sc
	switch string(sc.name) {
	case "sheetData":
		sr.inSheetData = !sc.selfClosing
		if sc.selfClosing {
			sr.done = true
		}
	case "row":
		if !sr.inSheetData {
			return nil, nil
		}
		if err := sr.startRow(); err != nil {
			return nil, err
		}
		if sc.selfClosing {
			return &sr.row, nil
		}
	case "c":
		if sr.inSheetData {
			return nil, sr.startCell()
		}
	case "v":
		sr.inValue = sr.inCell && !sc.selfClosing
		sr.cell.start = len(sr.row.arena)
	case "f":
		if sr.inCell {
			sr.cell.formula = true
		}
	case "is":
		sr.inInline = sr.inCell && !sc.selfClosing
		sr.cell.start = len(sr.row.arena)
	case "rPh":
		if !sc.selfClosing {
			sr.phonetic++
		}
	case "t":
		sr.inValue = sr.inInline && sr.phonetic == 0 && !sc.selfClosing
	}
	return nil, nil
}

func (sr *sheetReader) handleEnd() (*rawRow, error) {
	switch string(sr.sc.name) {
	case "v", "t":
		sr.inValue = false
	case "rPh":
		sr.phonetic = max(0, sr.phonetic-1)
	case "is":
		sr.inInline = false
	case "c":
		return nil, sr.endCell()
	case "row":
		if sr.inSheetData {
			return &sr.row, nil
		}
	case "sheetData":
		sr.inSheetData = false
		sr.done = true
	}
	return nil, nil
}

func (sr *sheetReader) startRow() error {
	num, hidden := sr.row.num+1, false
	for rest := sr.sc.attrs; ; {
		name, value, next, ok := nextAttr(rest)
		if !ok {
			break
		}
		rest = next
		switch string(name) {
		case "r":
			n, err := parseRowNumber(value)
			if err != nil {
				return err
			}
			num = n
		case "hidden":
			hidden = isTrue(value)
		}
	}
	if num > maxSheetRows {
		return badFormat("row %d is beyond the sheet's last row", num)
	}
	sr.row.num, sr.row.hidden = num, hidden
	sr.row.cells, sr.row.arena = sr.row.cells[:0], sr.row.arena[:0]
	sr.row.formulasWithoutValue = 0
	sr.lastCol = 0
	return nil
}

func (sr *sheetReader) startCell() error {
	cell := rawCell{col: sr.lastCol + 1, typ: cellNumber}
	for rest := sr.sc.attrs; ; {
		name, value, next, ok := nextAttr(rest)
		if !ok {
			break
		}
		rest = next
		if err := applyCellAttr(&cell, name, value); err != nil {
			return err
		}
	}
	// Excel writes a row's cells left to right and refuses a file that
	// does not; a repeated cell would be counted twice.
	if cell.col <= sr.lastCol {
		return badFormat("row %d: cell %s is out of order", sr.row.num, cellName(cell.col, sr.row.num))
	}
	if cell.col > maxSheetColumns {
		return badFormat("row %d: cell column %d is beyond the sheet's last column", sr.row.num, cell.col)
	}
	cell.start, cell.end = len(sr.row.arena), len(sr.row.arena)
	sr.lastCol = cell.col
	sr.cell, sr.inCell = cell, !sr.sc.selfClosing
	return nil
}

func applyCellAttr(cell *rawCell, name, value []byte) error {
	switch string(name) {
	case "r":
		col, _, err := parseCellRef(value)
		if err != nil {
			return err
		}
		cell.col = col
	case "s":
		style, err := parseSmallInt(value)
		if err == nil {
			cell.style = style
		}
	case "t":
		cell.typ = cellTypeCode(value)
	}
	return nil
}

func cellTypeCode(t []byte) byte {
	switch string(t) {
	case "s":
		return cellShared
	case "str":
		return cellFormulaStr
	case "inlineStr":
		return cellInlineString
	case "b":
		return cellBoolean
	case "e":
		return cellError
	case "d":
		return cellISODate
	}
	return cellNumber
}

// endCell keeps the cell when it carries text.
func (sr *sheetReader) endCell() error {
	if !sr.inCell {
		return nil
	}
	sr.inCell, sr.inValue, sr.inInline = false, false, false
	sr.cell.end = len(sr.row.arena)
	if sr.cell.end > sr.cell.start {
		cells, err := growSlice(&sr.mem, sr.row.cells, 1, rawCellSize)
		if err != nil {
			return err
		}
		sr.row.cells = append(cells, sr.cell)
		return nil
	}
	if sr.cell.formula {
		sr.row.formulasWithoutValue++
	}
	return nil
}

// tableRelationIDs reads the rest of the part and returns the distinct
// relationship ids of its table parts, at most maxTableParts of them.
func (sr *sheetReader) tableRelationIDs() ([]string, error) {
	sr.sc.wantText = false
	for {
		err := sr.sc.next()
		if errors.Is(err, io.EOF) {
			return sr.tableIDs, nil
		}
		if err != nil {
			return nil, err
		}
		if sr.sc.kind != tokenStart || string(sr.sc.name) != "tablePart" {
			continue
		}
		if id, ok := attrValue(sr.sc.attrs, "id"); ok {
			if err := sr.addTableID(id); err != nil {
				return nil, err
			}
		}
	}
}

func (sr *sheetReader) addTableID(raw []byte) error {
	id := string(appendUnescaped(nil, raw))
	if sr.seenIDs[id] || len(sr.tableIDs) >= maxTableParts {
		return nil
	}
	// Kept for the read: the ids outlive the reader.
	if err := sr.mem.mem.reserve(tableIDCost + int64(len(id))); err != nil {
		return err
	}
	if sr.seenIDs == nil {
		sr.seenIDs = make(map[string]bool)
	}
	sr.seenIDs[id] = true
	sr.tableIDs = append(sr.tableIDs, id)
	return nil
}

// attrValue returns the raw value of the first attribute with the local
// name want in raw attribute text.
func attrValue(raw []byte, want string) ([]byte, bool) {
	for rest := raw; ; {
		name, value, next, ok := nextAttr(rest)
		if !ok {
			return nil, false
		}
		if string(name) == want {
			return value, true
		}
		rest = next
	}
}

func isTrue(value []byte) bool {
	return string(value) == "1" || string(value) == "true"
}

func parseSmallInt(b []byte) (int, error) {
	if len(b) == 0 || len(b) > 9 {
		return 0, badFormat("invalid number %s", quoteCut(b))
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, badFormat("invalid number %s", quoteCut(b))
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

func parseRowNumber(b []byte) (int, error) {
	n, err := parseSmallInt(b)
	if err != nil || n < 1 {
		return 0, badFormat("invalid row number %s", quoteCut(b))
	}
	return n, nil
}
