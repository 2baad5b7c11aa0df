package workbook

import (
	"context"
	"fmt"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

const (
	maxSampleRows = 5
	// ctxCheckRows is how many rows pass between two context checks.
	ctxCheckRows = 256
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
type sheetScan struct {
	sheet       string
	typer       *cellTyper
	maxRows     int
	fixedHeader int

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

	// row scratch: the indexes of the current row's cells holding a value
	filled []int
}

func newSheetScan(sheet string, typer *cellTyper, maxRows, fixedHeader int) *sheetScan {
	return &sheetScan{
		sheet: sheet, typer: typer, maxRows: maxRows, fixedHeader: fixedHeader,
		columns: make(map[int]*columnStats),
	}
}

// run reads every row of the sheet.
func (s *sheetScan) run(ctx context.Context, rows *sheetReader) error {
	for n := 0; ; n++ {
		if n%ctxCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row, err := rows.next()
		if err != nil || row == nil {
			return err
		}
		s.addRow(row)
	}
}

// needsHeaderRescan reports a sheet whose rows all hold one value each,
// so the header is only known after a first scan.
func (s *sheetScan) needsHeaderRescan() bool {
	return s.header == 0 && s.firstValueRow > 0
}

func (s *sheetScan) addRow(row *rawRow) {
	s.noCachedValue += row.formulasWithoutValue
	s.filled = s.filled[:0]
	for i := range row.cells {
		if s.typer.holdsValue(row, &row.cells[i]) {
			s.filled = append(s.filled, i)
		}
	}
	if len(s.filled) == 0 {
		return
	}
	for _, i := range s.filled {
		c := &row.cells[i]
		s.used.add(row.num, c.col)
		if c.typ == cellError {
			s.warn.addf("%s!%s: error cell %s", s.sheet, cellName(c.col, row.num), row.text(c))
		}
	}
	switch {
	case s.header > 0:
		s.addDataRow(row)
	case s.isHeader(row):
		s.setHeader(row)
	case s.firstValueRow == 0:
		s.firstValueRow = row.num
	}
}

func (s *sheetScan) isHeader(row *rawRow) bool {
	if s.fixedHeader > 0 {
		return row.num == s.fixedHeader
	}
	return len(s.filled) >= 2
}

func (s *sheetScan) setHeader(row *rawRow) {
	s.header = row.num
	s.headerCells = make(map[int]cellValue, len(s.filled))
	for _, i := range s.filled {
		c := &row.cells[i]
		s.headerCells[c.col] = s.typer.value(row, c)
		s.block.add(row.num, c.col)
	}
}

func (s *sheetScan) addDataRow(row *rawRow) {
	s.rowCount++
	if row.hidden {
		s.hiddenRows++
	}
	for _, i := range s.filled {
		s.block.add(row.num, row.cells[i].col)
	}
	if s.profileFull || s.profiledRows >= s.maxRows {
		return
	}
	if s.profiledCells+len(s.filled) > maxProfiledCells {
		s.profileFull = true
		return
	}
	s.profiledRows++
	s.profiledCells += len(s.filled)
	var sample map[int]cellValue
	if len(s.samples) < maxSampleRows {
		sample = make(map[int]cellValue, len(s.filled))
	}
	for _, i := range s.filled {
		c := &row.cells[i]
		v := s.typer.value(row, c)
		if v.kind == valueEmpty {
			continue
		}
		s.column(c.col).add(v, c.col, row.num)
		if sample != nil {
			sample[c.col] = v
		}
	}
	if sample != nil {
		s.samples = append(s.samples, sampleRow{row: row.num, values: sample})
	}
}

func (s *sheetScan) column(col int) *columnStats {
	stats, ok := s.columns[col]
	if !ok {
		stats = newColumnStats()
		s.columns[col] = stats
	}
	return stats
}

// result renders the profile of the scanned sheet (name, hidden and
// tables are the caller's) and appends the sheet's warnings to warn.
func (s *sheetScan) result(warn *warnings) model.WorkbookSheet {
	out := model.WorkbookSheet{
		UsedRange: s.used.String(),
		Headers:   []string{}, Types: model.ColumnTypes{}, Columns: []model.ColumnProfile{},
		Tables: []model.SheetTable{},
	}
	var headerWarn warnings
	if s.header > 0 {
		s.fillBlock(&out, &headerWarn)
	}
	if s.noCachedValue > 0 {
		s.warn.addf("%s: %d formula cells have no cached value and read as empty (the workbook was saved without recalculation)",
			s.sheet, s.noCachedValue)
	}
	warn.merge(&headerWarn)
	warn.merge(&s.warn)
	return out
}

func (s *sheetScan) fillBlock(out *model.WorkbookSheet, warn *warnings) {
	out.HeaderRow = s.header
	out.Range = fmt.Sprintf("%s!%s", s.sheet, s.block)
	out.RowCount = s.rowCount
	out.HiddenRows = s.hiddenRows
	out.ProfileTruncated = s.rowCount > s.profiledRows

	first, last := s.block.minCol, s.block.maxCol
	texts := make([]string, 0, last-first+1)
	for col := first; col <= last; col++ {
		texts = append(texts, s.headerCells[col].display())
	}
	out.Headers = nameHeaders(s.sheet, s.header, first, texts, warn)
	out.Types = make(model.ColumnTypes, len(out.Headers))
	out.Columns = make([]model.ColumnProfile, len(out.Headers))
	for i, name := range out.Headers {
		stats := s.columns[first+i]
		if stats == nil {
			stats = newColumnStats()
		}
		out.Columns[i] = stats.profile(name, s.profiledRows)
		out.Types[i] = model.ColumnType{Header: name, Type: out.Columns[i].Type}
	}
	out.Sample = s.sampleRows(out.Headers, first)
}

func (s *sheetScan) sampleRows(headers []string, firstCol int) []model.SampleRow {
	rows := make([]model.SampleRow, len(s.samples))
	for i, sample := range s.samples {
		cells := make([]model.SampleCell, len(headers))
		for j, header := range headers {
			cells[j] = model.SampleCell{Header: header, Value: sample.values[firstCol+j].jsonValue()}
		}
		rows[i] = model.SampleRow{Row: sample.row, Cells: cells}
	}
	return rows
}
