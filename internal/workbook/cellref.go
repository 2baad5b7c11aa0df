// SPDX-License-Identifier: Apache-2.0

package workbook

import "strconv"

// parseCellRef parses an A1-style reference such as "AB12" (a "$" before
// either part is allowed) into its 1-based column and row.
func parseCellRef(ref []byte) (col, row int, err error) {
	i := 0
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20 // lower-case letters
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a') + 1
		if col > maxSheetColumns {
			return 0, 0, badFormat("cell reference %s: column out of range", quoteCut(ref))
		}
	}
	if col == 0 {
		return 0, 0, badFormat("cell reference %s has no column", quoteCut(ref))
	}
	if i < len(ref) && ref[i] == '$' {
		i++
	}
	row, err = parseRowNumber(ref[i:])
	if err != nil || row > maxSheetRows {
		return 0, 0, badFormat("cell reference %s: invalid row", quoteCut(ref))
	}
	return col, row, nil
}

// columnName returns the letters of a 1-based column: 1 is A, 27 is AA.
func columnName(col int) string {
	var buf [4]byte
	i := len(buf)
	for col > 0 {
		col--
		i--
		buf[i] = byte('A' + col%26)
		col /= 26
	}
	return string(buf[i:])
}

// cellName returns the A1-style name of a cell.
func cellName(col, row int) string {
	return columnName(col) + strconv.Itoa(row)
}

// bounds is a rectangle of cells; the zero value is empty.
type bounds struct {
	minRow, maxRow, minCol, maxCol int
}

func (b bounds) empty() bool { return b.maxRow == 0 }

// add grows the rectangle to hold one cell.
func (b *bounds) add(row, col int) {
	if b.empty() {
		*b = bounds{minRow: row, maxRow: row, minCol: col, maxCol: col}
		return
	}
	b.minRow, b.maxRow = min(b.minRow, row), max(b.maxRow, row)
	b.minCol, b.maxCol = min(b.minCol, col), max(b.maxCol, col)
}

// String renders the rectangle as "A1:F120"; "" when empty.
func (b bounds) String() string {
	if b.empty() {
		return ""
	}
	return cellName(b.minCol, b.minRow) + ":" + cellName(b.maxCol, b.maxRow)
}
