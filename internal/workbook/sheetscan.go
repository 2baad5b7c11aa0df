// SPDX-License-Identifier: Apache-2.0

package workbook

const (
	maxSampleRows = 5
	// ctxCheckRows is how many rows pass between two context checks.
	ctxCheckRows = 256
)

// What a sheet's scan reserves against the read's budget beside the texts
// it keeps.
const (
	costCell      = 160 // one typed cell kept in a map (a header or sample cell)
	costSampleRow = 96  // one sample row's map and slot
	costFilledIdx = 8   // one entry of the row scratch
)

// sampleRow keeps one typed data row until the block's columns are known.
type sampleRow struct {
	row    int
	values map[int]cellValue
}

// sheetScan detects the data block of one sheet and profiles it while the
// rows stream past. Detection (the Dagu rule): the header is the first row
// with two or more values; the block runs from there to the last row and
// the outermost columns holding values. When no row has two values the
// first row with a value is the header; the caller finds it with a first
// scan and passes it as fixedHeader to a second one.
//
// Everything the scan keeps is reserved through mem; release gives it back
// once the sheet's profile is built.
type sheetScan struct {
	sheet       string
	at          *progress // where the read is: the scan sets the row
	typer       *cellTyper
	maxRows     int
	fixedHeader int
	mem         charge

	warn          warnings
	used          bounds
	firstValueRow int
	header        int
	headerCells   map[int]cellValue
	block         bounds
	rowCount      int
	hiddenRows    int
	profiledRows  int
	profiledCells int
	profileFull   bool
	columns       map[int]*columnStats
	samples       []sampleRow
	noCachedValue int
	cutTexts      int // kept values whose text was cut

	// row scratch: the indexes of the current row's cells holding a value
	filled []int
}

func newSheetScan(sheet string, typer *cellTyper, mem *memoryBudget, maxRows, fixedHeader int) *sheetScan {
	return &sheetScan{
		sheet: sheet, typer: typer, maxRows: maxRows, fixedHeader: fixedHeader,
		mem: charge{mem: mem}, columns: make(map[int]*columnStats),
	}
}

// release gives back what the scan reserved; the scan is unusable after.
func (s *sheetScan) release() {
	s.headerCells, s.columns, s.samples, s.filled = nil, nil, nil, nil
	s.mem.releaseAll()
}

// run reads every row of the sheet, asking check every few rows whether
// the read may go on (the part's reader asks it too, before each read).
func (s *sheetScan) run(check func() error, rows *sheetReader) error {
	for n := 0; ; n++ {
		if n%ctxCheckRows == 0 {
			if err := check(); err != nil {
				return err
			}
		}
		row, err := rows.next()
		if err != nil || row == nil {
			return err
		}
		if s.at != nil {
			s.at.row = row.num
		}
		if err := s.addRow(row); err != nil {
			return err
		}
	}
}

// needsHeaderRescan reports a sheet whose rows all hold one value each,
// so the header is only known after a first scan.
func (s *sheetScan) needsHeaderRescan() bool {
	return s.header == 0 && s.firstValueRow > 0
}

func (s *sheetScan) addRow(row *rawRow) error {
	s.noCachedValue += row.formulasWithoutValue
	if err := s.collectFilled(row); err != nil || len(s.filled) == 0 {
		return err
	}
	for _, i := range s.filled {
		s.used.add(row.num, row.cells[i].col)
	}
	switch {
	case s.header > 0:
		return s.addDataRow(row)
	case s.isHeader(row):
		return s.setHeader(row)
	case s.firstValueRow == 0:
		s.firstValueRow = row.num
	}
	return nil
}

// collectFilled lists the row's cells that hold a value. An error cell
// such as #N/A is null, as the definition says, in every statistic and in
// header detection: it only earns its warning.
func (s *sheetScan) collectFilled(row *rawRow) error {
	filled, err := growSlice(&s.mem, s.filled[:0], len(row.cells), costFilledIdx)
	if err != nil {
		return err
	}
	for i := range row.cells {
		c := &row.cells[i]
		switch {
		case c.typ == cellError:
			code, _ := cutBytes(row.text(c))
			s.warn.addf("%s!%s: error cell %s", s.sheet, cellName(c.col, row.num), code)
		case s.typer.missingShared(row, c):
			index, _ := cutBytes(row.text(c))
			s.warn.addf("%s!%s: shared string %s is not in the workbook's shared strings; the cell is read as empty",
				s.sheet, cellName(c.col, row.num), index)
		case s.typer.holdsValue(row, c):
			filled = append(filled, i)
		}
	}
	s.filled = filled
	return nil
}

func (s *sheetScan) isHeader(row *rawRow) bool {
	if s.fixedHeader > 0 {
		return row.num == s.fixedHeader
	}
	return len(s.filled) >= 2
}

func (s *sheetScan) setHeader(row *rawRow) error {
	if err := s.mem.add(int64(len(s.filled)) * costCell); err != nil {
		return err
	}
	s.header = row.num
	s.headerCells = make(map[int]cellValue, len(s.filled))
	for _, i := range s.filled {
		c := &row.cells[i]
		v := s.typed(row, c)
		if err := s.mem.add(int64(len(v.text))); err != nil {
			return err
		}
		s.headerCells[c.col] = v
		s.block.add(row.num, c.col)
	}
	return nil
}

// typed types a cell the scan reads, counting cut texts.
func (s *sheetScan) typed(row *rawRow, c *rawCell) cellValue {
	v := s.typer.value(row, c)
	if v.tail != 0 {
		s.cutTexts++
	}
	return v
}

func (s *sheetScan) addDataRow(row *rawRow) error {
	s.rowCount++
	if row.hidden {
		s.hiddenRows++
	}
	for _, i := range s.filled {
		s.block.add(row.num, row.cells[i].col)
	}
	if s.profileFull || s.profiledRows >= s.maxRows {
		return nil
	}
	if s.profiledCells+len(s.filled) > maxProfiledCells {
		s.profileFull = true
		return nil
	}
	s.profiledRows++
	s.profiledCells += len(s.filled)
	return s.profileRow(row)
}

// profileRow adds a data row's values to the column statistics and keeps
// it as a sample while there are fewer than maxSampleRows.
func (s *sheetScan) profileRow(row *rawRow) error {
	var sample map[int]cellValue
	if len(s.samples) < maxSampleRows {
		if err := s.mem.add(costSampleRow + int64(len(s.filled))*costCell); err != nil {
			return err
		}
		sample = make(map[int]cellValue, len(s.filled))
	}
	for _, i := range s.filled {
		c := &row.cells[i]
		v := s.typed(row, c)
		if v.kind == valueEmpty {
			continue
		}
		if err := s.addValue(c.col, row.num, v); err != nil {
			return err
		}
		if sample != nil {
			if err := s.mem.add(int64(len(v.text))); err != nil {
				return err
			}
			sample[c.col] = v
		}
	}
	if sample != nil {
		s.samples = append(s.samples, sampleRow{row: row.num, values: sample})
	}
	return nil
}

// addValue adds one value to its column's statistics, which are created
// on the column's first value.
func (s *sheetScan) addValue(col, row int, v cellValue) error {
	stats, ok := s.columns[col]
	if !ok {
		if err := s.mem.add(costColumn); err != nil {
			return err
		}
		stats = newColumnStats(&s.mem)
		s.columns[col] = stats
	}
	return stats.add(v, col, row)
}
