// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"fmt"
	"unsafe"

	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// What the profile of one sheet costs beside its texts; the profile is
// kept until the read returns, so its reservation is never given back.
const (
	costSheetOutput  = int64(unsafe.Sizeof(model.WorkbookSheet{})) + 128
	costOutputColumn = int64(unsafe.Sizeof(model.ColumnProfile{})+unsafe.Sizeof(model.ColumnType{})) + 128 // + header naming
	costOutputCell   = int64(unsafe.Sizeof(model.SampleCell{})) + 16                                       // + the boxed value
	costOutputNote   = int64(unsafe.Sizeof(model.OddCell{})) + 16
	costOutputValue  = 16 // one listed value's string header
)

// result renders the profile of the scanned sheet (name, hidden and
// tables are the caller's) and appends the sheet's warnings to warn. It
// reserves the profile against the read's budget before building it.
func (s *sheetScan) result(warn *warnings) (model.WorkbookSheet, error) {
	if err := s.mem.mem.reserve(s.outputCost()); err != nil {
		return model.WorkbookSheet{}, err
	}
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
	if s.cutTexts > 0 {
		s.warn.addf("%s: %d cells hold more than %d characters; the profile shows their first %d followed by %s",
			s.sheet, s.cutTexts, maxTextRunes, maxTextRunes, textCutMarker)
	}
	warn.merge(&headerWarn)
	warn.merge(&s.warn)
	return out, nil
}

// outputCost estimates, from above, the memory of the profile result
// builds.
func (s *sheetScan) outputCost() int64 {
	cost := costSheetOutput
	if s.header == 0 {
		return cost
	}
	width := int64(s.block.maxCol - s.block.minCol + 1)
	cost += width * (costOutputColumn + int64(len(s.samples))*costOutputCell)
	for _, v := range s.headerCells {
		cost += 2 * int64(len(v.text)) // the header, and its renamed copy
	}
	for _, stats := range s.columns {
		cost += stats.outputCost()
	}
	for _, sample := range s.samples {
		for _, v := range sample.values {
			cost += int64(len(v.text))
		}
	}
	return cost
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
			stats = &columnStats{}
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
